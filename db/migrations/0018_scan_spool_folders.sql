-- The spool folders a redirect has used, per host and namespace, so one started with another folder
-- takes over the files left in the earlier ones (docs/decisions/0386-stranded-spool-folders.md).
CREATE TABLE "scan_spool_folders" (
	"host" text NOT NULL,
	"namespace" text NOT NULL,
	"dir" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scan_spool_folders_pk" PRIMARY KEY("host","namespace","dir")
);
