/**
 * The reading level as a zod schema. A module of its own, so that code checking a level (the stored settings, which
 * the reader's engine reads at start) does not also evaluate every API schema in schemas.ts.
 */
import { z } from 'zod';
import { LEVELS } from './levels';

export const LevelSchema = z.enum(LEVELS);
