CREATE INDEX "links_slug_trgm_idx" ON "links" USING gin ("slug" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "links_url_trgm_idx" ON "links" USING gin (("meta_data"->>'url') gin_trgm_ops);