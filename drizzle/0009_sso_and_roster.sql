CREATE TABLE "roster_staff" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"sourced_id" text NOT NULL,
	"email" text NOT NULL,
	"given_name" text NOT NULL,
	"family_name" text NOT NULL,
	"role" text NOT NULL,
	"enabled" boolean NOT NULL,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"domains" jsonb NOT NULL,
	"trust_email" boolean DEFAULT false NOT NULL,
	"default_role" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_providers_organization_id_unique" UNIQUE("organization_id")
);
--> statement-breakpoint
ALTER TABLE "roster_staff" ADD CONSTRAINT "roster_staff_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_staff" ADD CONSTRAINT "roster_staff_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "roster_staff_org_sourced_id" ON "roster_staff" USING btree ("organization_id","sourced_id");--> statement-breakpoint
CREATE INDEX "roster_staff_email" ON "roster_staff" USING btree (lower("email"));