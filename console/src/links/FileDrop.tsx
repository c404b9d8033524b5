/**
 * A file field: drop a file on it, or reach its file input by keyboard. The file is uploaded at
 * once (POST /api/v1/files, with a progress bar) and the field holds its fileId; a refused file is
 * the API's reason at the field.
 */
import { useState } from 'preact/hooks';
import { Field } from '../fields/Field.js';
import { useFileDrop } from '../fields/file-drop.js';
import type { FieldErrors } from '../fields/errors.js';
import { uploadFile } from './upload.js';

/** What the editor knows of a file, to show it: its name (when uploaded here), type, size and a local preview. */
export interface FileInfo {
  name: string;
  contentType: string;
  size: number;
  preview?: string;
}

interface Props {
  path: string;
  label: string;
  kind: 'image' | 'pdf';
  fileId: string;
  info: FileInfo | undefined;
  errors: FieldErrors;
  required?: boolean;
  onUploaded(fileId: string, info: FileInfo): void;
}

const ACCEPT = { image: 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml', pdf: 'application/pdf' } as const;

export const sizeText = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function FileDrop({ path, label, kind, fileId, info, errors, required, onUploaded }: Props) {
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [refusal, setRefusal] = useState('');

  const take = async (file: File | undefined) => {
    if (!file) return;
    setRefusal('');
    setProgress({ name: file.name, fraction: 0 });
    const result = await uploadFile(file, (fraction) => setProgress({ name: file.name, fraction }));
    setProgress(null);
    if (!result.ok) return setRefusal(result.message);
    const preview = result.file.contentType.startsWith('image/') ? URL.createObjectURL(file) : undefined;
    onUploaded(result.file.fileId, { name: file.name, contentType: result.file.contentType, size: result.file.size, preview });
  };
  const { over, handlers } = useFileDrop((file) => void take(file));
  const shown = refusal ? { ...errors, [path]: refusal } : errors;

  return (
    <Field
      path={path}
      label={required ? label : `${label} (optional)`}
      errors={shown}
      hint={`Drop ${kind === 'pdf' ? 'a PDF' : 'an image'} here, or choose one.`}
    >
      {(input) => (
        <div class={over ? 'drop-zone drop-over' : 'drop-zone'} {...handlers}>
          <input
            {...input}
            type="file"
            accept={ACCEPT[kind]}
            onChange={(e) => {
              void take(e.currentTarget.files?.[0]);
              e.currentTarget.value = '';
            }}
          />
          {progress && (
            <p class="upload-progress">
              <progress max={1} value={progress.fraction} aria-label={`Uploading ${progress.name}`} />
              <span>
                Uploading {progress.name}: {Math.round(progress.fraction * 100)}%
              </span>
            </p>
          )}
          {!progress && fileId && (
            <p class="attached">
              {info?.preview && <img src={info.preview} alt="" width={48} height={48} />}
              <span>Attached: {info ? `${info.name} (${sizeText(info.size)})` : `file ${fileId.slice(0, 8)}…`}</span>
            </p>
          )}
        </div>
      )}
    </Field>
  );
}
