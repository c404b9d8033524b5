/**
 * A CSV file chosen by dropping it on the zone or through the file input inside it. The input is
 * the zone's keyboard path: it stays focusable (visually hidden, the zone shows its focus), so
 * Tab reaches it and Enter (or Space) opens the file chooser.
 */
import { useFileDrop } from '../fields/file-drop.js';
import { Icon } from '../ui/Icon.js';

interface Props {
  id: string;
  fileName: string | null;
  describedBy: string | undefined;
  invalid: boolean;
  onFile(file: File): void;
}

export function DropZone({ id, fileName, describedBy, invalid, onFile }: Props) {
  const { over, handlers } = useFileDrop(onFile);
  return (
    <label class={`drop-zone${over ? ' drop-over' : ''}${invalid ? ' drop-invalid' : ''}`} for={id} {...handlers}>
      <input
        id={id}
        class="visually-hidden"
        type="file"
        accept=".csv,text/csv"
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={describedBy}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) onFile(file);
          // Choosing the same file again (after fixing it on disk) must read it again.
          e.currentTarget.value = '';
        }}
      />
      <span class="drop-icon">
        <Icon name="upload" size="1.5rem" />
      </span>
      <strong>CSV file</strong>
      <span>{fileName ? `Chosen: ${fileName}. Drop or choose another to replace it.` : 'Drop a .csv file here, or choose one.'}</span>
    </label>
  );
}
