export function Spinner({ label = 'Loading', className = '' }: { label?: string; className?: string }) {
  return (
    <span role="status" className={`inline-flex items-center gap-3 text-ink-muted ${className}`}>
      <span className="size-5 animate-spin rounded-full border-2 border-primary-200 border-t-primary-700" aria-hidden="true" />
      <span>{label}</span>
    </span>
  );
}
