CREATE TABLE "account_link_usage" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"links" bigint DEFAULT 0 NOT NULL,
	"data_bytes" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_link_usage" ADD CONSTRAINT "account_link_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Links written while the counts are taken would be missed or counted twice: writes wait for this
-- migration's transaction.
LOCK TABLE "links" IN SHARE MODE;--> statement-breakpoint
-- What a link's content weighs against its plan (docs/decisions/0372-links-and-their-content-bounded-per-plan.md).
CREATE FUNCTION link_data_bytes(meta_data jsonb, page_style jsonb) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT octet_length(meta_data::text)::bigint + coalesce(octet_length(page_style::text), 0) $$;--> statement-breakpoint
CREATE FUNCTION account_link_usage_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_link_usage AS u (account_id, links, data_bytes)
    SELECT account_id, count(*), sum(link_data_bytes(meta_data, page_style)) FROM added_links GROUP BY account_id
  ON CONFLICT (account_id) DO UPDATE SET links = u.links + excluded.links, data_bytes = u.data_bytes + excluded.data_bytes;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION account_link_usage_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account_link_usage AS u SET links = u.links - r.n, data_bytes = u.data_bytes - r.bytes
    FROM (SELECT account_id, count(*) AS n, sum(link_data_bytes(meta_data, page_style)) AS bytes FROM removed_links GROUP BY account_id) AS r
    WHERE u.account_id = r.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION account_link_usage_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account_link_usage
    SET data_bytes = data_bytes + link_data_bytes(NEW.meta_data, NEW.page_style) - link_data_bytes(OLD.meta_data, OLD.page_style)
    WHERE account_id = NEW.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER links_usage_added AFTER INSERT ON "links" REFERENCING NEW TABLE AS added_links
  FOR EACH STATEMENT EXECUTE FUNCTION account_link_usage_added();--> statement-breakpoint
CREATE TRIGGER links_usage_removed AFTER DELETE ON "links" REFERENCING OLD TABLE AS removed_links
  FOR EACH STATEMENT EXECUTE FUNCTION account_link_usage_removed();--> statement-breakpoint
-- Per row, and only when the content changed: most updates of a link (its folder, its name, a
-- favourite) leave the counts alone and cost nothing here.
CREATE TRIGGER links_usage_changed AFTER UPDATE OF "meta_data", "page_style" ON "links"
  FOR EACH ROW WHEN (OLD.meta_data IS DISTINCT FROM NEW.meta_data OR OLD.page_style IS DISTINCT FROM NEW.page_style)
  EXECUTE FUNCTION account_link_usage_changed();--> statement-breakpoint
INSERT INTO account_link_usage (account_id, links, data_bytes)
  SELECT account_id, count(*), sum(link_data_bytes(meta_data, page_style)) FROM "links" GROUP BY account_id;
