/** Column builders that server/db/schema.ts and server/db/authSchema.ts share. */
import { timestamp } from 'drizzle-orm/pg-core';

/** A timestamp with time zone, read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `created_at`: required, set to now by the database when not given. */
export const createdAt = () => ts('created_at').defaultNow().notNull();

/** `updated_at`: required, set to now by the database on insert when not given. */
export const updatedAt = () => ts('updated_at').defaultNow().notNull();
