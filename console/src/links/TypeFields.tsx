/**
 * The fields of one link type's form, drawn from its spec (link-form.ts): each input is a Field
 * keyed by its body path (`data.url`, `data.pdfs.2.label`), and each list can add, remove and
 * reorder its entries with buttons (so by keyboard too; focus follows a moved entry).
 */
import { useEffect, useState } from 'preact/hooks';
import { Field, fieldId, type FieldInputProps } from '../fields/Field.js';
import type { FieldErrors } from '../fields/errors.js';
import type { LinkType } from '#domain/links/data/types.js';
import { FileDrop, type FileInfo } from './FileDrop.js';
import { moved, newItem, TYPE_FORMS, type Draft, type DraftItem, type LeafSpec, type LeafValue, type ListSpec } from './link-form.js';

interface Props {
  type: LinkType;
  draft: Draft;
  errors: FieldErrors;
  files: Readonly<Record<string, FileInfo>>;
  /** Changes the form; given a function of the latest draft, since an upload ends after other edits. */
  update(change: (draft: Draft) => Draft): void;
  onFile(fileId: string, info: FileInfo): void;
}

/** Whether a value can be shown by a datetime-local input (no offset). */
const isLocalDateTime = (value: string) => value === '' || /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value);

let zones: string[] | null = null;
const timeZones = () => (zones ??= Intl.supportedValuesOf('timeZone'));

interface LeafProps {
  spec: LeafSpec;
  path: string;
  value: LeafValue | undefined;
  errors: FieldErrors;
  files: Readonly<Record<string, FileInfo>>;
  set(value: LeafValue): void;
  onFile(fileId: string, info: FileInfo): void;
}

function textInput(spec: LeafSpec, input: FieldInputProps, value: string, set: (value: string) => void) {
  const common = { ...input, value, onInput: (e: { currentTarget: { value: string } }) => set(e.currentTarget.value) };
  switch (spec.kind) {
    case 'longtext':
      return <textarea {...common} rows={4} maxLength={spec.maxLength} />;
    case 'html':
      return <textarea {...common} rows={12} class="code" spellcheck={false} />;
    case 'number':
      return <input {...common} type="text" inputMode="decimal" />;
    case 'datetime':
      return isLocalDateTime(value) ? <input {...common} type="datetime-local" /> : <input {...common} type="text" />;
    case 'timezone':
    case 'select': {
      const choices: ReadonlyArray<readonly [string, string]> =
        spec.kind === 'select'
          ? spec.options!
          : (timeZones().includes(value) ? timeZones() : [value, ...timeZones()]).map((zone) => [zone, zone]);
      return (
        <select {...common} onChange={common.onInput}>
          {choices.map(([option, words]) => (
            <option key={option} value={option}>
              {words}
            </option>
          ))}
        </select>
      );
    }
    case 'color':
      return (
        <span class="color-input">
          <input {...common} type="color" value={/^#[0-9a-f]{6}$/i.test(value) ? value : '#000000'} />
          <code>{value}</code>
        </span>
      );
    default:
      // One type per element: preact's types tie each input type to the attributes it allows.
      if (spec.kind === 'url') return <input {...common} type="url" />;
      if (spec.kind === 'email') return <input {...common} type="email" />;
      if (spec.kind === 'tel') return <input {...common} type="tel" />;
      return <input {...common} type="text" maxLength={spec.maxLength} />;
  }
}

function LeafField({ spec, path, value, errors, files, set, onFile }: LeafProps) {
  if (spec.kind === 'image' || spec.kind === 'pdf') {
    const fileId = typeof value === 'string' ? value : '';
    return (
      <FileDrop
        path={path}
        label={spec.label}
        kind={spec.kind}
        fileId={fileId}
        info={files[fileId]}
        errors={errors}
        required={spec.required}
        onUploaded={(id, info) => {
          onFile(id, info);
          set(id);
        }}
      />
    );
  }
  const label = spec.required || spec.kind === 'checkbox' ? spec.label : `${spec.label} (optional)`;
  return (
    <Field path={path} label={label} errors={errors} hint={spec.hint}>
      {(input) =>
        spec.kind === 'checkbox' ? (
          <input {...input} type="checkbox" checked={value === true} onChange={(e) => set(e.currentTarget.checked)} />
        ) : (
          textInput(spec, input, typeof value === 'string' ? value : '', set)
        )
      }
    </Field>
  );
}

interface ListProps extends Omit<Props, 'type' | 'draft' | 'update'> {
  list: ListSpec;
  items: DraftItem[];
  setItems(change: (items: DraftItem[]) => DraftItem[]): void;
}

function ListField({ list, items, setItems, errors, files, onFile }: ListProps) {
  const [focus, setFocus] = useState<string | null>(null);
  useEffect(() => {
    if (focus) document.getElementById(focus)?.focus();
    setFocus(null);
  }, [focus, items]);
  const listPath = `data.${list.key}`;
  const name = (i: number) => `${list.itemLabel} ${i + 1}`;
  const move = (i: number, by: -1 | 1) => {
    setItems((latest) => moved(latest, i, by));
    // Focus stays on the moved entry: on the same button, or the other one once it reaches an end.
    const to = i + by;
    const atEnd = by < 0 ? to === 0 : to === items.length - 1;
    setFocus(`${fieldId(listPath)}-${items[i]!.id}-${by < 0 !== atEnd ? 'up' : 'down'}`);
  };
  return (
    <fieldset class="group list-field" aria-describedby={errors[listPath] ? `${fieldId(listPath)}-error` : undefined}>
      <legend>{list.label}</legend>
      {errors[listPath] && (
        <p class="field-error" id={`${fieldId(listPath)}-error`}>
          {errors[listPath]}
        </p>
      )}
      {items.length === 0 && <p class="hint">None yet.</p>}
      <ol>
        {items.map((item, i) => (
          <li key={item.id}>
            <fieldset class="group list-item">
              <legend>{name(i)}</legend>
              {list.fields.map((spec) => (
                <LeafField
                  key={spec.key}
                  spec={spec}
                  path={`${listPath}.${i}.${spec.key}`}
                  value={item.values[spec.key]}
                  errors={errors}
                  files={files}
                  onFile={onFile}
                  set={(value) =>
                    setItems((latest) =>
                      latest.map((other) => (other.id === item.id ? { ...other, values: { ...other.values, [spec.key]: value } } : other)),
                    )
                  }
                />
              ))}
              <div class="item-actions">
                <button
                  type="button"
                  class="small"
                  id={`${fieldId(listPath)}-${item.id}-up`}
                  disabled={i === 0}
                  aria-label={`Move up (${name(i)})`}
                  onClick={() => move(i, -1)}
                >
                  Move up
                </button>
                <button
                  type="button"
                  class="small"
                  id={`${fieldId(listPath)}-${item.id}-down`}
                  disabled={i === items.length - 1}
                  aria-label={`Move down (${name(i)})`}
                  onClick={() => move(i, 1)}
                >
                  Move down
                </button>
                <button
                  type="button"
                  class="small"
                  aria-label={`Remove ${name(i)}`}
                  onClick={() => {
                    setItems((latest) => latest.filter((other) => other.id !== item.id));
                    setFocus(`${fieldId(listPath)}-add`);
                  }}
                >
                  Remove
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <button
        type="button"
        class="small"
        id={`${fieldId(listPath)}-add`}
        disabled={items.length >= list.max}
        onClick={() => setItems((latest) => [...latest, newItem(list)])}
      >
        Add {/^[A-Z]+$/.test(list.itemLabel) ? list.itemLabel : list.itemLabel.toLowerCase()}
      </button>
      {items.length >= list.max && <p class="hint">At most {list.max}.</p>}
    </fieldset>
  );
}

export function TypeFields({ type, draft, errors, files, update, onFile }: Props) {
  return (
    <>
      {TYPE_FORMS[type].fields.map((spec) =>
        spec.kind === 'list' ? (
          <ListField
            key={spec.key}
            list={spec}
            items={draft.lists[spec.key] ?? []}
            setItems={(change) =>
              update((latest) => ({ ...latest, lists: { ...latest.lists, [spec.key]: change(latest.lists[spec.key] ?? []) } }))
            }
            errors={errors}
            files={files}
            onFile={onFile}
          />
        ) : (
          <LeafField
            key={spec.key}
            spec={spec}
            path={`data.${spec.key}`}
            value={draft.values[spec.key]}
            errors={errors}
            files={files}
            onFile={onFile}
            set={(value) => update((latest) => ({ ...latest, values: { ...latest.values, [spec.key]: value } }))}
          />
        ),
      )}
    </>
  );
}
