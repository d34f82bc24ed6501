import { LEVEL_COLORS, LEVEL_LABELS, type Level } from '../../domain/levels';

/** A reading level as a coloured chip (SPEC §2: gold, silver, original). */
export function LevelChip({ level, size = 'md' }: { level: Level; size?: 'sm' | 'md' }) {
  const colors = LEVEL_COLORS[level];
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full font-semibold ${size === 'sm' ? 'px-2.5 py-0.5 text-xs' : 'px-3 py-1 text-sm'}`}
      style={{ backgroundColor: colors.background, color: colors.foreground }}
    >
      <span className="size-2 rounded-full" style={{ backgroundColor: colors.dot }} aria-hidden="true" />
      {LEVEL_LABELS[level]}
    </span>
  );
}
