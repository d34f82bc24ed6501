ALTER TABLE "editions" ADD COLUMN "readability_grade" real;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "readability_formula" text;