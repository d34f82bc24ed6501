CREATE TABLE "assets" (
	"path" text PRIMARY KEY NOT NULL,
	"publication_id" integer NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"sha256" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_revision" (
	"id" integer PRIMARY KEY NOT NULL,
	"revision" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "editions" (
	"id" serial PRIMARY KEY NOT NULL,
	"publication_id" integer NOT NULL,
	"language" text NOT NULL,
	"level" text NOT NULL,
	"passage_count" integer NOT NULL,
	"audio_enabled" boolean DEFAULT false NOT NULL,
	"decode_enabled" boolean DEFAULT false NOT NULL,
	"highlight_mode_enabled" boolean DEFAULT false NOT NULL,
	"audio_total_length" real DEFAULT 0 NOT NULL,
	"total_words" integer NOT NULL,
	"unique_words" integer NOT NULL,
	"lexile" text
);
--> statement-breakpoint
CREATE TABLE "info_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"publication_id" integer NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passages" (
	"id" serial PRIMARY KEY NOT NULL,
	"edition_id" integer NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"text_decoded" text,
	"image_url" text,
	"part_name" text,
	"section_name" text,
	"audio_url" text,
	"speech_marks" jsonb
);
--> statement-breakpoint
CREATE TABLE "publications" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"author" text NOT NULL,
	"thumbnail_image_url" text NOT NULL,
	"badges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rendering_mode" text DEFAULT 'DEFAULT' NOT NULL,
	"default_reader" jsonb NOT NULL,
	"source_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qr_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"publication_id" integer NOT NULL,
	"url" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shortcuts" (
	"id" serial PRIMARY KEY NOT NULL,
	"edition_id" integer NOT NULL,
	"name" text NOT NULL,
	"passage" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "editions" ADD CONSTRAINT "editions_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "info_sections" ADD CONSTRAINT "info_sections_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_codes" ADD CONSTRAINT "qr_codes_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shortcuts" ADD CONSTRAINT "shortcuts_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "editions_publication_language_level" ON "editions" USING btree ("publication_id","language","level");--> statement-breakpoint
CREATE INDEX "info_sections_publication" ON "info_sections" USING btree ("publication_id");--> statement-breakpoint
CREATE UNIQUE INDEX "passages_edition_position" ON "passages" USING btree ("edition_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "publications_slug_version" ON "publications" USING btree ("slug","version");--> statement-breakpoint
CREATE INDEX "shortcuts_edition" ON "shortcuts" USING btree ("edition_id");