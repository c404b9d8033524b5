/** A time zone select over every zone the browser knows, inside a Field (so it is labelled and shows its error). */
import { useMemo } from 'preact/hooks';
import type { FieldInputProps } from '../fields/Field.js';
import { browserTimeZone, groupedTimeZoneOptions, zoneOptionLabel } from './zones.js';

interface Props {
  input: FieldInputProps;
  value: string;
  onChange(zone: string): void;
}

export function ZoneSelect({ input, value, onChange }: Props) {
  return (
    <select {...input} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      <ZoneOptions current={value} />
    </select>
  );
}

/** The options of a zone select: yours and the chosen one, common zones, then every zone by region. */
export function ZoneOptions({ current }: { current: string }) {
  const groups = useMemo(() => groupedTimeZoneOptions(current, browserTimeZone()), [current]);
  return (
    <>
      {groups.map((group) => (
        <optgroup key={group.label} label={group.label}>
          {group.zones.map((zone) => (
            <option key={zone} value={zone}>
              {zoneOptionLabel(zone)}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}
