/**
 * A smart-url link's rules as an ordered list: add, remove, move up and down (buttons, so the
 * keyboard does it too), each rule with its fields and a plain-language summary, and the default
 * destination last. Thin: mapping and wording live in rules.ts.
 */
import { useEffect, useState } from 'preact/hooks';
import { Field, fieldId } from '../fields/Field.js';
import type { FieldErrors } from '../fields/errors.js';
import {
  CONDITION_LABELS,
  CONDITION_TYPES,
  countryName,
  dateFieldsOf,
  defaultSummary,
  DEVICE_LABELS,
  DEVICES,
  newRule,
  OPERATOR_LABELS,
  operatorsOf,
  ruleFieldErrors,
  ruleSummary,
  searchCountries,
  SMART_URL_RULES_MAX,
  withConditionType,
  type ConditionType,
  type Device,
  type RuleForm,
} from './rules.js';
import { moved } from './link-form.js';
import { ZoneSelect } from './ZoneSelect.js';
import './editor-parts.css';

interface Props {
  value: RuleForm[];
  onChange(next: RuleForm[]): void;
  errors: FieldErrors;
  /** The link's default destination, for the closing "Everyone else → …" line. */
  defaultUrl: string;
}

export function RulesEditor({ value, onChange, errors, defaultUrl }: Props) {
  const [announcement, setAnnouncement] = useState('');
  const [focusNext, setFocusNext] = useState<string | null>(null);
  useEffect(() => {
    if (focusNext) document.getElementById(focusNext)?.focus();
    setFocusNext(null);
  }, [focusNext]);

  const replace = (index: number, rule: RuleForm) => onChange(value.map((r, i) => (i === index ? rule : r)));
  const move = (index: number, by: -1 | 1) => {
    const rule = value[index]!;
    const to = index + by;
    onChange(moved(value, index, by));
    setAnnouncement(`Rule moved to position ${to + 1} of ${value.length}.`);
    // Keep focus on the button pressed, or on its twin once the rule reaches an end of the list.
    const atEnd = to === 0 || to === value.length - 1;
    setFocusNext(`rule-${rule.id}-${atEnd ? (by < 0 ? 'down' : 'up') : by < 0 ? 'up' : 'down'}`);
  };
  const remove = (index: number) => {
    const next = value.filter((_, i) => i !== index);
    onChange(next);
    setAnnouncement(`Rule ${index + 1} removed.`);
    const neighbour = next[index] ?? next[index - 1];
    setFocusNext(neighbour ? `rule-${neighbour.id}-remove` : 'rule-add');
  };
  const add = () => {
    const rule = newRule();
    onChange([...value, rule]);
    setAnnouncement(`Rule ${value.length + 1} added.`);
    setFocusNext(fieldId(`data.rules.${value.length}.conditionType`));
  };
  const full = value.length >= SMART_URL_RULES_MAX;

  return (
    <section class="rules-editor" aria-labelledby="rules-title">
      <h2 id="rules-title">Rules</h2>
      <p class="hint">
        Rules are tried from the top; the first one a visit matches decides where it goes, and visits no rule matches go to the default
        destination. Up to {SMART_URL_RULES_MAX} rules.
      </p>
      {errors['data.rules'] && <p class="field-error">{errors['data.rules']}</p>}
      {value.length > 0 && (
        <ol class="rules">
          {value.map((rule, index) => (
            <RuleItem
              key={rule.id}
              rule={rule}
              index={index}
              count={value.length}
              errors={errors}
              onChange={(r) => replace(index, r)}
              onMove={(by) => move(index, by)}
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
      )}
      <p class="rule-default">{defaultSummary(defaultUrl, value.length)}</p>
      <button type="button" id="rule-add" onClick={add} disabled={full}>
        Add rule
      </button>
      {full && <p class="hint">A link has at most {SMART_URL_RULES_MAX} rules.</p>}
      <p class="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </section>
  );
}

interface RuleProps {
  rule: RuleForm;
  index: number;
  count: number;
  errors: FieldErrors;
  onChange(rule: RuleForm): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}

function RuleItem({ rule, index, count, errors, onChange, onMove, onRemove }: RuleProps) {
  const at = `data.rules.${index}`;
  const path = (field: string) => `${at}.${field}`;
  const ruleErrors = ruleFieldErrors(errors, index, rule);
  const set = (change: Partial<RuleForm>) => onChange({ ...rule, ...change });
  const shown = new Set([
    path('conditionType'),
    path('operator'),
    path('url'),
    path('countries'),
    path('devices'),
    path('timezone'),
    path('timeFrom'),
    path('timeTo'),
    path('dateFrom'),
    path('dateTo'),
  ]);
  const otherErrors = Object.entries(ruleErrors).filter(([p]) => !shown.has(p));
  const dates = dateFieldsOf(rule.operator);
  const number = index + 1;
  return (
    <li class="rule">
      <fieldset class="group">
        <legend>Rule {number}</legend>
        <p class="rule-summary">{ruleSummary(rule)}</p>
        {otherErrors.map(([p, message]) => (
          <p class="field-error" key={p}>
            {p === at ? message : `${p.slice(at.length + 1)}: ${message}`}
          </p>
        ))}
        <div class="setting-row">
          <Field path={path('conditionType')} label="When the visitor's" errors={ruleErrors}>
            {(input) => (
              <select
                {...input}
                value={rule.conditionType}
                onChange={(e) => onChange(withConditionType(rule, e.currentTarget.value as ConditionType))}
              >
                {CONDITION_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {CONDITION_LABELS[type]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field path={path('operator')} label="Condition" errors={ruleErrors}>
            {(input) => (
              <select {...input} value={rule.operator} onChange={(e) => set({ operator: e.currentTarget.value as RuleForm['operator'] })}>
                {operatorsOf(rule.conditionType).map((op) => (
                  <option key={op} value={op}>
                    {OPERATOR_LABELS[rule.conditionType][op]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>

        {rule.conditionType === 'location' && (
          <CountryPicker
            path={path('countries')}
            selected={rule.countries}
            error={ruleErrors[path('countries')]}
            onChange={(countries) => set({ countries })}
          />
        )}

        {rule.conditionType === 'device' && (
          <DevicePicker
            path={path('devices')}
            selected={rule.devices}
            error={ruleErrors[path('devices')]}
            onChange={(devices) => set({ devices })}
          />
        )}

        {rule.conditionType === 'time' && (
          <div class="setting-row">
            <Field path={path('timeFrom')} label="From" errors={ruleErrors}>
              {(input) => <input {...input} type="time" value={rule.timeFrom} onInput={(e) => set({ timeFrom: e.currentTarget.value })} />}
            </Field>
            <Field
              path={path('timeTo')}
              label="Until"
              errors={ruleErrors}
              hint="Not included; an earlier time than From means the next day."
            >
              {(input) => <input {...input} type="time" value={rule.timeTo} onInput={(e) => set({ timeTo: e.currentTarget.value })} />}
            </Field>
          </div>
        )}

        {rule.conditionType === 'date' && (
          <div class="setting-row">
            {dates.from && (
              <Field
                path={path('dateFrom')}
                label={rule.operator === 'after' ? 'After' : 'From'}
                errors={ruleErrors}
                hint={rule.operator === 'after' ? 'Starting the next day at midnight.' : 'This day included.'}
              >
                {(input) => (
                  <input {...input} type="date" value={rule.dateFrom} onInput={(e) => set({ dateFrom: e.currentTarget.value })} />
                )}
              </Field>
            )}
            {dates.to && (
              <Field
                path={path('dateTo')}
                label={rule.operator === 'before' ? 'Before' : 'Through'}
                errors={ruleErrors}
                hint={rule.operator === 'before' ? 'Until midnight at the start of this day.' : 'This day included.'}
              >
                {(input) => <input {...input} type="date" value={rule.dateTo} onInput={(e) => set({ dateTo: e.currentTarget.value })} />}
              </Field>
            )}
          </div>
        )}

        {(rule.conditionType === 'time' || rule.conditionType === 'date') && (
          <Field path={path('timezone')} label="Time zone" errors={ruleErrors}>
            {(input) => <ZoneSelect input={input} value={rule.timezone} onChange={(timezone) => set({ timezone })} />}
          </Field>
        )}

        <Field path={path('url')} label="Send to" errors={ruleErrors} hint="A full address starting with https:// or http://">
          {(input) => (
            <input {...input} type="url" value={rule.url} placeholder="https://" onInput={(e) => set({ url: e.currentTarget.value })} />
          )}
        </Field>

        <div class="rule-actions">
          <button
            type="button"
            class="small"
            id={`rule-${rule.id}-up`}
            onClick={() => onMove(-1)}
            disabled={index === 0}
            aria-label={`Move up rule ${number}`}
          >
            Move up
          </button>
          <button
            type="button"
            class="small"
            id={`rule-${rule.id}-down`}
            onClick={() => onMove(1)}
            disabled={index === count - 1}
            aria-label={`Move down rule ${number}`}
          >
            Move down
          </button>
          <button type="button" class="small" id={`rule-${rule.id}-remove`} onClick={onRemove} aria-label={`Remove rule ${number}`}>
            Remove
          </button>
        </div>
      </fieldset>
    </li>
  );
}

/** The chosen countries as removable chips, and a search that lists matching countries to tick. */
function CountryPicker({
  path,
  selected,
  error,
  onChange,
}: {
  path: string;
  selected: string[];
  error: string | undefined;
  onChange(next: string[]): void;
}) {
  const [query, setQuery] = useState('');
  const id = fieldId(path);
  const chosen = new Set(selected.map((c) => c.toUpperCase()));
  const matches = searchCountries(query);
  const toggle = (code: string) => onChange(chosen.has(code) ? selected.filter((c) => c.toUpperCase() !== code) : [...selected, code]);
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <label for={id}>Countries</label>
      {selected.length > 0 && (
        <ul class="chips" aria-label="Chosen countries">
          {selected.map((code) => (
            <li key={code}>
              {countryName(code)} ({code})
              <button
                type="button"
                class="small"
                aria-label={`Remove ${countryName(code)}`}
                onClick={() => onChange(selected.filter((c) => c !== code))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        type="search"
        autocomplete="off"
        value={query}
        placeholder="Type a country's name"
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={[`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter picks the only (or first) match rather than submitting the form; Escape clears.
          if (e.key === 'Enter') {
            e.preventDefault();
            const first = matches[0];
            if (first && !chosen.has(first.code)) toggle(first.code);
            setQuery('');
          } else if (e.key === 'Escape' && query) {
            e.preventDefault();
            setQuery('');
          }
        }}
      />
      <p class="hint" id={`${id}-hint`}>
        {query && matches.length === 0 ? 'No country matches.' : 'Type to find a country, then tick it (Enter takes the first match).'}
      </p>
      {matches.length > 0 && (
        <ul class="country-matches" aria-label="Matching countries">
          {matches.map((c) => (
            <li key={c.code}>
              <label class="check">
                <input type="checkbox" checked={chosen.has(c.code)} onChange={() => toggle(c.code)} />
                {c.name} ({c.code})
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

function DevicePicker({
  path,
  selected,
  error,
  onChange,
}: {
  path: string;
  selected: Device[];
  error: string | undefined;
  onChange(next: Device[]): void;
}) {
  const id = fieldId(path);
  const toggle = (device: Device) =>
    onChange(
      selected.includes(device) ? selected.filter((d) => d !== device) : DEVICES.filter((d) => d === device || selected.includes(d)),
    );
  return (
    <fieldset class={error ? 'devices field-invalid' : 'devices'} id={id} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Devices</legend>
      {DEVICES.map((device) => (
        <label class="check" key={device}>
          <input type="checkbox" checked={selected.includes(device)} onChange={() => toggle(device)} />
          {DEVICE_LABELS[device]}
        </label>
      ))}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
