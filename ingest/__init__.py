"""The ingestion pipeline: read files, parse abstracts, dedupe, chunk, embed, write."""
