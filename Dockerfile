# Parlour: python -m bot, as a non-root user, with the database on a volume.
FROM python:3.11-slim

RUN useradd --create-home --uid 10001 parlour \
    && mkdir -p /var/lib/parlour && chown parlour:parlour /var/lib/parlour
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY render ./render
COPY storage ./storage
COPY fakediscord ./fakediscord
COPY playground ./playground
COPY i18n ./i18n
COPY setup.py ./
# The compiled checkers search and endgame solver (games/checkers/_core.c, _egdbcore.c), the
# Quatorze hint's playouts (games/quatorze/_playouts.c) and the Hearts expert's roll-outs
# (games/hearts/_playouts.c): gcc only for this step. They are built into /app too, since
# `python -m bot` imports the packages from the working directory. fonts-noto-cjk stays: the
# pictures draw Japanese, and any letter Pillow's bundled font lacks, in Noto Sans CJK.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev fonts-noto-cjk \
    && pip install --no-cache-dir . \
    && python setup.py -q build_ext --inplace && rm -rf build \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/* \
    && python -c "import games.checkers._core, games.checkers._egdbcore" \
    && python -c "import games.quatorze._playouts, games.hearts._playouts"
# The checkers endgame database, read-only for the bot's computer players: 5 pieces (151 MB,
# about a minute) with the C solver.
ENV PARLOUR_EGDB_DIR=/opt/parlour/egdb
RUN python -m games.checkers.egdb build

USER parlour
# PARLOUR_HTTP serves /healthz (the health check below) and /metrics for Prometheus.
ENV DATABASE_URL=sqlite:////var/lib/parlour/parlour.db \
    PARLOUR_HTTP=0.0.0.0:9100 \
    PYTHONUNBUFFERED=1
EXPOSE 9100
VOLUME ["/var/lib/parlour"]
# Healthy: every shard connected and the database answering within a second.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.ops.healthcheck"]
# docker stop sends SIGTERM: the bot finishes the interactions in flight, then exits.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
