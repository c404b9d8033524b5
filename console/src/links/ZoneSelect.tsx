/** A time zone select over every zone the browser knows, inside a Field (so it is labelled and shows its error). */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { FieldInputProps } from '../fields/Field.js';
import { browserTimeZone, groupedTimeZoneOptions, zoneOptionLabel } from './zones.js';

/** How long after the select is first drawn its other zones are added: past the screen's first paint. */
const FIRST_PAINT_MS = 300;

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

/**
 * The options of a zone select: yours and the chosen one, common zones, then every zone by region.
 * The first two groups come with the page; the 400 others a moment later, in a task of their own,
 * so a phone draws the screen first (nobody opens the select in that moment).
 */
export function ZoneOptions({ current }: { current: string }) {
  const groups = useMemo(() => groupedTimeZoneOptions(current, browserTimeZone()), [current]);
  const [all, setAll] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setAll(true), FIRST_PAINT_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <>
      {(all ? groups : groups.slice(0, 2)).map((group) => (
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
