/** A time zone select over every zone the browser knows, inside a Field (so it is labelled and shows its error). */
import { useMemo } from 'preact/hooks';
import type { FieldInputProps } from '../fields/Field.js';
import { timeZoneOptions } from './zones.js';

interface Props {
  input: FieldInputProps;
  value: string;
  onChange(zone: string): void;
}

export function ZoneSelect({ input, value, onChange }: Props) {
  const zones = useMemo(() => timeZoneOptions(value), [value]);
  return (
    <select {...input} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {zones.map((zone) => (
        <option key={zone} value={zone}>
          {zone.replace(/_/g, ' ')}
        </option>
      ))}
    </select>
  );
}
