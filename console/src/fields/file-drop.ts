/**
 * What makes an element a target for a dropped file: it shows while a file is held over it
 * (`over`), and hands the dropped file on. The element's file input stays its keyboard path.
 */
import { useState } from 'preact/hooks';

export interface FileDropTarget {
  over: boolean;
  handlers: {
    onDragOver(e: DragEvent): void;
    onDragLeave(): void;
    onDrop(e: DragEvent): void;
  };
}

export function useFileDrop(onFile: (file: File) => void): FileDropTarget {
  const [over, setOver] = useState(false);
  return {
    over,
    handlers: {
      onDragOver: (e) => {
        e.preventDefault();
        setOver(true);
      },
      onDragLeave: () => setOver(false),
      onDrop: (e) => {
        e.preventDefault();
        setOver(false);
        const file = e.dataTransfer?.files[0];
        if (file) onFile(file);
      },
    },
  };
}
