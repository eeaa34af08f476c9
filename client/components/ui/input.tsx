import { forwardRef, type InputHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(
  function Input({ className, ...props }, ref) {
    return (
      <input
        ref={ref}
        className={cn(
          'h-11 w-full rounded-lg border border-ink-300 bg-white px-3 text-base text-ink-900 placeholder:text-ink-500',
          'focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:border-brand-700',
          'aria-[invalid=true]:border-red-700',
          className,
        )}
        {...props}
      />
    );
  },
);
