"""Strength harnesses: the computer's players against frozen earlier ones and outside engines."""
