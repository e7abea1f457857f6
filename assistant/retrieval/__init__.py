"""Retrieval before any reading of the question: paper vectors, field indexes and their fused ranking."""
