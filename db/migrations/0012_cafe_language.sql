-- A cafe's menu page language (a canonical BCP 47 tag); null: each guest's browser language.
ALTER TABLE "cafes" ADD COLUMN "language" text;
