-- A link's page style: the brand and language of the page a scan shows (null: the default look).
ALTER TABLE "links" ADD COLUMN "page_style" jsonb;
