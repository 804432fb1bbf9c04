"""Arcana Fight! Edelweiss support."""
