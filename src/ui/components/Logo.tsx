/** The Lectern mark: an open book resting on a reading stand. */
export function LogoMark({ size = 36, className }: { size?: number; className?: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false" className={className}>
      <rect width="40" height="40" rx="10" fill="#103a3a" />
      {/* book */}
      <path d="M20 12.2c-3.2-2.2-6.9-2.8-11-2.3v14.6c4.1-.5 7.8.1 11 2.3 3.2-2.2 6.9-2.8 11-2.3V9.9c-4.1-.5-7.8.1-11 2.3z" fill="#f8f7f3" />
      <path d="M20 12.2v14.6" stroke="#103a3a" strokeWidth="1.3" />
      <path d="M11.8 14.2c2 0 3.9.4 5.6 1.2M11.8 17.6c2 0 3.9.4 5.6 1.2M22.6 15.4c1.7-.8 3.6-1.2 5.6-1.2M22.6 18.8c1.7-.8 3.6-1.2 5.6-1.2" stroke="#7fbfba" strokeWidth="1.1" strokeLinecap="round" />
      {/* stand */}
      <path d="M20 27.6v4.6M14.5 32.4h11" stroke="#d4a514" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}
