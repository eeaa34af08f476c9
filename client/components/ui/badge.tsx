import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

/** Product rule: badge variants default, secondary, destructive, outline. */
const VARIANTS = {
  default: 'bg-brand-700 text-white border-transparent',
  secondary: 'bg-sun-100 text-ink-900 border-transparent',
  destructive: 'bg-red-700 text-white border-transparent',
  outline: 'border-ink-300 text-ink-800',
} as const;

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: keyof typeof VARIANTS;
}

export function Badge({ className, variant = 'default', ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold',
        VARIANTS[variant],
        className,
      )}
      {...props}
    />
  );
}
