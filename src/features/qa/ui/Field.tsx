import { useEffect, useState } from 'react';

/** A text field that commits one undo step when it is left (or Enter in single-line fields). */
export function Field({
  value,
  onCommit,
  multiline,
  label,
  testId,
  placeholder,
}: {
  value: string;
  onCommit: (v: string) => void;
  multiline?: boolean;
  label: string;
  testId?: string;
  placeholder?: string;
}) {
  const [v, setV] = useState(value);
  useEffect(() => setV(value), [value]);
  const commit = () => {
    if (v !== value) onCommit(v);
  };
  return multiline ? (
    <textarea aria-label={label} data-testid={testId} value={v} rows={3} placeholder={placeholder} onChange={(e) => setV(e.target.value)} onBlur={commit} />
  ) : (
    <input
      aria-label={label}
      data-testid={testId}
      value={v}
      placeholder={placeholder}
      onChange={(e) => setV(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
      }}
    />
  );
}
