-- Web-sized copies of a photo (widths, formats, sizes), stored beside its blob; null: none.
ALTER TABLE "file_blobs" ADD COLUMN "variants" jsonb;
