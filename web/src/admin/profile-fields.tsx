/**
 * Custom profile fields (GET, POST, PATCH and DELETE /realm/profile_fields): the extra lines of everyone's profile,
 * with Zulip's field types. Lists of options and external accounts need data this page does not ask for (Zulip's
 * web app has editors of their own), so it offers the other types.
 */
import { useEffect, useState } from 'preact/hooks';
import * as client from '../lib/client';
import { Field } from '../ui/field';
import { Outcome, errorText, useAction } from '../ui/outcome';

export interface ProfileField {
  id: number;
  name: string;
  type: number;
  hint: string;
  order: number;
}

/** Zulip's CustomProfileField types this page creates, with Zulip's names. */
const FIELD_TYPES: [number, string][] = [
  [1, 'Text (short)'],
  [2, 'Text (long)'],
  [4, 'Date picker'],
  [5, 'Link'],
  [6, 'Users'],
  [8, 'Pronouns'],
];
const TYPE_NAMES = new Map<number, string>([...FIELD_TYPES, [3, 'List of options'], [7, 'External account']]);

function FieldRow({
  field,
  index,
  count,
  act,
  move,
}: {
  field: ProfileField;
  index: number;
  count: number;
  act: (action: () => Promise<unknown>, done: string) => void;
  move: (from: number, to: number) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(field.name);
  const [hint, setHint] = useState(field.hint);
  return (
    <li data-profile-field={field.name}>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            act(() => client.organization.profileFields.edit(field.id, { name: name.trim(), hint }), 'Field saved');
            setEditing(false);
          }}
        >
          <Field id={`admin-field-name-${field.id}`} label="Name" value={name} onValue={setName} />
          <Field id={`admin-field-hint-${field.id}`} label="Hint" value={hint} onValue={setHint} />
          <button type="submit" class="admin-field-save">
            Save
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <>
          <span class="admin-field-name">{field.name}</span> <span>({TYPE_NAMES.get(field.type) ?? field.type})</span>
          {field.hint && <span class="admin-field-hint"> — {field.hint}</span>}
          <button
            class="admin-field-edit"
            aria-label={`Edit the field ${field.name}`}
            onClick={() => {
              setName(field.name);
              setHint(field.hint);
              setEditing(true);
            }}
          >
            Edit
          </button>
          <button
            class="admin-field-up"
            aria-label={`Move the field ${field.name} up`}
            disabled={index === 0}
            onClick={() => move(index, index - 1)}
          >
            Up
          </button>
          <button
            class="admin-field-down"
            aria-label={`Move the field ${field.name} down`}
            disabled={index === count - 1}
            onClick={() => move(index, index + 1)}
          >
            Down
          </button>
          <button
            class="admin-field-remove"
            aria-label={`Delete the field ${field.name}`}
            onClick={() => act(() => client.organization.profileFields.delete(field.id), `${field.name} deleted`)}
          >
            Delete
          </button>
        </>
      )}
    </li>
  );
}

export function ProfileFields() {
  const { ok, error, run } = useAction();
  const [fields, setFields] = useState<ProfileField[]>([]);
  const [loadError, setLoadError] = useState('');
  const [name, setName] = useState('');
  const [hint, setHint] = useState('');
  const [type, setType] = useState('1');
  const load = () =>
    client.organization.profileFields
      .list<ProfileField>()
      .then((body) => {
        setFields([...body.custom_fields].sort((a, b) => a.order - b.order));
        setLoadError('');
      })
      .catch((e: unknown) => setLoadError(errorText(e)));
  useEffect(() => void load(), []);
  // Each change is read back, so the list shows what the server has.
  const act = (action: () => Promise<unknown>, done: string) => void run(action, done).then(load);
  const move = (from: number, to: number) => {
    const order = fields.map((f) => f.id);
    order.splice(to, 0, ...order.splice(from, 1));
    act(() => client.organization.profileFields.reorder(order), 'Order saved');
  };
  return (
    <section aria-labelledby="admin-fields-heading" class="admin-fields">
      <h2 id="admin-fields-heading">Custom profile fields</h2>
      <ol>
        {fields.map((f, i) => (
          <FieldRow key={f.id} field={f} index={i} count={fields.length} act={act} move={move} />
        ))}
      </ol>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(
            () => client.organization.profileFields.create({ name: name.trim(), hint, field_type: Number(type) }),
            `${name.trim()} added`,
          ).then((done) => {
            void load();
            if (!done) return;
            setName('');
            setHint('');
          });
        }}
      >
        <h3>Add a field</h3>
        <Field id="admin-field-new-name" label="Name" value={name} onValue={setName} />
        <Field id="admin-field-new-hint" label="Hint" value={hint} onValue={setHint} />
        <label for="admin-field-new-type">Type</label>
        <select id="admin-field-new-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
          {FIELD_TYPES.map(([id, text]) => (
            <option key={id} value={String(id)}>
              {text}
            </option>
          ))}
        </select>
        <button id="admin-field-add" type="submit">
          Add field
        </button>
      </form>
      <Outcome ok={ok} error={error || loadError} />
    </section>
  );
}
