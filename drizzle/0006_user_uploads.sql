ALTER TABLE "publications" ADD COLUMN "owner_user_id" text;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_owner_user_id_user_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "publications_owner" ON "publications" USING btree ("owner_user_id");