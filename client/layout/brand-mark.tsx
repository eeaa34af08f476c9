/** The campaign's mark: a meal bowl with a leaf (biodegradable), in the campaign's colours. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 40 40" className={className} aria-hidden="true" focusable="false">
      <circle cx="20" cy="20" r="20" fill="#05703a" />
      <path d="M9 20h22a11 11 0 0 1-22 0Z" fill="#fed100" />
      <path d="M12.5 24.5h15" stroke="#05703a" strokeWidth="1.6" strokeLinecap="round" />
      <path
        d="M20.5 18.5c-.4-4.6 2.4-8.3 8-9-.1 5.2-3.1 8.6-8 9Zm0 0c1.5-2.6 3.3-4.4 5.5-5.6"
        fill="#d1fadf"
        stroke="#d1fadf"
        strokeWidth="1"
        strokeLinejoin="round"
      />
      <path d="M20.5 18.5c1.5-2.6 3.3-4.4 5.5-5.6" stroke="#05703a" strokeWidth="1" fill="none" />
    </svg>
  );
}
