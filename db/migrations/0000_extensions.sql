-- Trigram indexes make case-insensitive substring search on link names fast.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
