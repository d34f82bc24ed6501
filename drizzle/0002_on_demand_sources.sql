CREATE TABLE "edition_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"publication_id" integer NOT NULL,
	"language" text NOT NULL,
	"level" text NOT NULL,
	"edition" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "origin" text DEFAULT 'content' NOT NULL;--> statement-breakpoint
ALTER TABLE "edition_sources" ADD CONSTRAINT "edition_sources_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "edition_sources_publication_language_level" ON "edition_sources" USING btree ("publication_id","language","level");