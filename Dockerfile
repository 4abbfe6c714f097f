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
RUN pip install --no-cache-dir .

USER parlour
ENV DATABASE_URL=sqlite:////var/lib/parlour/parlour.db \
    PYTHONUNBUFFERED=1
VOLUME ["/var/lib/parlour"]
CMD ["python", "-m", "bot"]
