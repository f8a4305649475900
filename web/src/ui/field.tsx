/** A labelled text field of a form (the label names it for assistive technology). */
export function Field({
  id,
  label,
  value,
  onValue,
  type = 'text',
  autoComplete,
  multiline = false,
}: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  type?: string;
  autoComplete?: string;
  multiline?: boolean;
}) {
  return (
    <>
      <label for={id}>{label}</label>
      {multiline ? (
        <textarea id={id} value={value} onInput={(e) => onValue(e.currentTarget.value)} />
      ) : (
        <input
          id={id}
          type={type}
          autoComplete={autoComplete}
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
        />
      )}
    </>
  );
}
