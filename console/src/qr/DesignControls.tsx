/**
 * The designer's controls: looks applied in one click, then sections that fold (Style, Colours and
 * Print open; Logo open once there is one; Advanced closed), each opening by itself when the API
 * names an error inside it. Styles are radio groups of samples drawn by the renderer, colours are
 * swatches with a custom colour beside them; Advanced holds every other option of `qrOptions`.
 */
import type { ComponentChildren } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import {
  CORNER_DOT_TYPES,
  CORNER_SQUARE_TYPES,
  DOT_TYPES,
  DRAW_TYPES,
  ERROR_CORRECTION_LEVELS,
  MODES,
  CROSS_ORIGINS,
  FRAME_STYLES,
  FRAME_TEXT_MAX,
  type FrameStyle,
} from '#domain/qr/options.js';
import { defaultFrameText } from '#domain/qr/print/frame-texts.js';
import { FRAME_NAMES, FRAME_SAMPLES } from './frame-samples.js';
import { Field, fieldId } from '../fields/Field.js';
import { NO_ERRORS, type FieldErrors } from '../fields/errors.js';
import { Icon } from '../ui/Icon.js';
import {
  DEFAULT_MARGIN,
  fillControls,
  hexColor,
  logoFileProblem,
  LOGO_TYPES,
  renderDesign,
  resolved,
  withFill,
  withSection,
  type FillControls,
  type FillPart,
  type QrOptions,
} from './design.js';
import {
  BACKGROUND_COLOURS,
  backgroundColour,
  CODE_COLOURS,
  codeColour,
  hasLook,
  LOOKS,
  styleName,
  styleSample,
  withBackgroundColour,
  withCodeColour,
  withLook,
  type SamplePart,
} from './looks.js';
import { useNear } from '../ui/WhenNear.js';

interface Props {
  value: QrOptions;
  onChange(next: QrOptions): void;
  data: string;
  errors: FieldErrors;
  /** Where the logo stands (set by the designer, which reads it). */
  logoNote: ComponentChildren;
  /** The print size, distance and report (the designer asks the server for them). */
  printSection?: ComponentChildren;
}

const LEVEL_LABELS: Record<(typeof ERROR_CORRECTION_LEVELS)[number], string> = {
  L: 'L: recovers 7 % (smallest code)',
  M: 'M: recovers 15 %',
  Q: 'Q: recovers 25 %',
  H: 'H: recovers 30 % (best with a logo)',
};

const numberOr = (text: string, fallback: number) => (text.trim() === '' || !Number.isFinite(Number(text)) ? fallback : Number(text));

const STYLE_PATHS = ['dotsOptions.type', 'cornersSquareOptions.type', 'cornersDotOptions.type'];
const isLogoPath = (path: string) => path === 'image' || path.startsWith('imageOptions.');
const isFramePath = (path: string) => path.startsWith('frameOptions');
const isAdvancedPath = (path: string) => !STYLE_PATHS.includes(path) && !isLogoPath(path) && !isFramePath(path);

export function DesignControls({ value, onChange, data, errors, logoNote, printSection }: Props) {
  const opts = resolved(value, data);
  const paths = Object.keys(errors);
  const set = <S extends 'dotsOptions' | 'cornersSquareOptions' | 'cornersDotOptions' | 'backgroundOptions' | 'imageOptions' | 'qrOptions'>(
    section: S,
    patch: NonNullable<QrOptions[S]>,
  ) => onChange(withSection(value, section, patch));
  return (
    <div class="qr-controls">
      <Looks value={value} data={data} onChange={onChange} />
      <Section title="Style" open errorHere={paths.some((p) => STYLE_PATHS.includes(p))}>
        <StylePicker
          part="dotsOptions"
          label="Dot style"
          types={DOT_TYPES}
          value={opts.dotsOptions.type}
          errors={errors}
          onSelect={(type) => set('dotsOptions', { type })}
        />
        <StylePicker
          part="cornersSquareOptions"
          label="Corner square style"
          types={CORNER_SQUARE_TYPES}
          value={opts.cornersSquareOptions.type}
          errors={errors}
          onSelect={(type) => set('cornersSquareOptions', { type })}
        />
        <StylePicker
          part="cornersDotOptions"
          label="Corner dot style"
          types={CORNER_DOT_TYPES}
          value={opts.cornersDotOptions.type}
          errors={errors}
          onSelect={(type) => set('cornersDotOptions', { type })}
        />
      </Section>
      <Section title="Colours" open errorHere={false}>
        <Swatches
          name="qr-code-colour"
          label="Code colour"
          hint="The dots and the corners. Each part, and gradients, under Advanced."
          colours={CODE_COLOURS}
          value={codeColour(value)}
          shown={hexColor(opts.dotsOptions.color)}
          onChoose={(color) => onChange(withCodeColour(value, color))}
        />
        <Swatches
          name="qr-background-colour"
          label="Background"
          colours={BACKGROUND_COLOURS}
          value={backgroundColour(value)}
          shown={hexColor(opts.backgroundOptions.color)}
          onChoose={(color) => onChange(withBackgroundColour(value, color))}
        />
      </Section>
      <Section title="Logo" open={Boolean(value.image)} errorHere={paths.some(isLogoPath)}>
        <LogoFields value={value} onChange={onChange} errors={errors} />
        {logoNote}
      </Section>
      <Section title="Frame" open={Boolean(value.frameOptions)} errorHere={paths.some(isFramePath)}>
        <FrameFields value={value} onChange={onChange} errors={errors} codeColour={hexColor(opts.dotsOptions.color)} />
      </Section>
      {printSection && (
        <Section title="Print" open errorHere={false}>
          {printSection}
        </Section>
      )}
      <Section title="Advanced" open={false} errorHere={paths.some(isAdvancedPath)}>
        <Advanced value={value} onChange={onChange} errors={errors} data={data} />
      </Section>
    </div>
  );
}

/** A section that folds; it opens by itself when an error lands inside it. */
function Section({ title, open, errorHere, children }: { title: string; open: boolean; errorHere: boolean; children: ComponentChildren }) {
  return (
    <details class="qr-section" open={open || errorHere}>
      <summary>
        <Icon name="chevron-down" />
        <h3>{title}</h3>
      </summary>
      <div class="qr-section-body">{children}</div>
    </details>
  );
}

/** The named looks, each drawn as this code would look in it, applied in one click. */
function Looks({ value, data, onChange }: { value: QrOptions; data: string; onChange(next: QrOptions): void }) {
  // Drawn without the logo (the thumbnails show the look, and stay cheap), at the design's own size.
  // Drawn when the looks come near the screen: below the link form on a phone, five renders it need not wait for.
  const size = `${value.width ?? ''}x${value.height ?? ''}x${value.shape ?? ''}`;
  const group = useRef<HTMLDivElement>(null);
  const near = useNear(group);
  const thumbnails = useMemo(
    () =>
      near
        ? LOOKS.map((look) => {
            const rendered = renderDesign({ ...withLook(value, look), image: null }, data, null);
            return rendered.ok ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(rendered.svg)}` : null;
          })
        : [],
    [data, size, near],
  );
  return (
    <div class="qr-looks" role="group" aria-labelledby="qr-looks-title" ref={group}>
      <h3 id="qr-looks-title">Looks</h3>
      <ul>
        {LOOKS.map((look, i) => (
          <li key={look.name} class="qr-look">
            {/* The button's name is the look's; what it is for is its description, beside it (the whole card presses it). */}
            <button
              type="button"
              aria-pressed={hasLook(value, look)}
              aria-describedby={`qr-look-${i}-purpose`}
              onClick={() => onChange(withLook(value, look))}
            >
              {thumbnails[i] && <img src={thumbnails[i]} alt="" width={48} height={48} />}
              {look.name}
            </button>
            <span class="qr-look-purpose" id={`qr-look-${i}-purpose`}>
              {look.purpose}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const samples = new Map<string, string>();
/** A style's sample, drawn once per page. */
function sampleOf(part: SamplePart, type: string): string {
  const key = `${part}:${type}`;
  let svg = samples.get(key);
  if (svg === undefined) samples.set(key, (svg = styleSample(part, type)));
  return svg;
}

/** One style as a radio group of drawn samples: arrow keys move between them, as in any radio group. */
function StylePicker<T extends string>(props: {
  part: SamplePart;
  label: string;
  types: readonly T[];
  value: T;
  errors: FieldErrors;
  onSelect(value: T): void;
}) {
  const path = `${props.part}.type`;
  const id = fieldId(path);
  const error = props.errors[path];
  // The samples (a render each) are drawn when the picker comes near the screen; the radios and their names are there at once.
  const place = useRef<HTMLFieldSetElement>(null);
  const near = useNear(place);
  return (
    <fieldset
      ref={place}
      class="qr-choices qr-styles"
      role="radiogroup"
      aria-labelledby={`${id}-legend`}
      aria-describedby={error ? `${id}-error` : undefined}
      aria-invalid={error ? 'true' : undefined}
    >
      <legend id={`${id}-legend`}>{props.label}</legend>
      <div class="qr-choice-row">
        {props.types.map((type) => (
          <label key={type} class="qr-choice qr-style">
            <input
              type="radio"
              id={`${id}-${type}`}
              name={path}
              value={type}
              checked={props.value === type}
              onChange={() => props.onSelect(type)}
            />
            <span class="qr-sample" dangerouslySetInnerHTML={{ __html: near ? sampleOf(props.part, type) : '' }} />
            <span class="qr-choice-name">{styleName(type)}</span>
          </label>
        ))}
      </div>
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Colour swatches as a radio group (none chosen when the colour is no swatch's), with a custom colour beside them. */
function Swatches(props: {
  name: string;
  label: string;
  hint?: string;
  colours: ReadonlyArray<readonly [string, string]>;
  /** The solid colour now, or null for a gradient or parts of different colours. */
  value: string | null;
  /** What the custom colour input shows. */
  shown: string;
  onChoose(color: string): void;
}) {
  const custom = props.value !== null && !props.colours.some(([, hex]) => hex === props.value);
  return (
    <fieldset
      class="qr-choices qr-swatches"
      role="radiogroup"
      aria-labelledby={`${props.name}-legend`}
      aria-describedby={props.hint ? `${props.name}-hint` : undefined}
    >
      <legend id={`${props.name}-legend`}>{props.label}</legend>
      {props.hint && (
        <p class="hint" id={`${props.name}-hint`}>
          {props.hint}
        </p>
      )}
      <div class="qr-choice-row">
        {props.colours.map(([name, hex]) => (
          <label key={hex} class="qr-choice qr-swatch" title={name}>
            <input type="radio" name={props.name} value={hex} checked={props.value === hex} onChange={() => props.onChoose(hex)} />
            <span class="qr-swatch-colour" style={{ background: hex }} />
            <span class="visually-hidden">{name}</span>
          </label>
        ))}
        <label class={custom ? 'qr-custom-colour qr-custom-chosen' : 'qr-custom-colour'}>
          <input type="color" value={props.shown} onInput={(e) => props.onChoose(e.currentTarget.value)} />
          <span>Custom</span>
          <span class="visually-hidden"> {props.label.toLowerCase()}</span>
        </label>
      </div>
    </fieldset>
  );
}

/**
 * The frame around the code: none or one of the styles (drawn samples, a radio group), its call to
 * action (empty: the style's default, shown as the placeholder) and its colour (default: the code's).
 * The server draws framed codes (their text is outlined from its font), so its messages land here.
 */
function FrameFields({
  value,
  onChange,
  errors,
  codeColour: dotsColour,
}: {
  value: QrOptions;
  onChange(next: QrOptions): void;
  errors: FieldErrors;
  codeColour: string;
}) {
  const frame = value.frameOptions;
  const chosen: FrameStyle | 'none' = frame?.style ?? 'none';
  const withFrame = (patch: Partial<NonNullable<QrOptions['frameOptions']>>) => {
    const next = { ...(frame ?? { style: 'bottom-banner' as const }), ...patch };
    // An empty text or colour is the default: the key goes, so the stored design stays minimal.
    for (const key of ['text', 'color'] as const) if (next[key] === undefined || next[key] === '') delete next[key];
    onChange({ ...value, frameOptions: next });
  };
  const choose = (style: FrameStyle | 'none') => {
    if (style !== 'none') return withFrame({ style });
    const { frameOptions: _, ...rest } = value;
    onChange(rest);
  };
  const styleError = errors['frameOptions.style'] ?? errors.frameOptions;
  const textError = errors['frameOptions.text'];
  return (
    <>
      <fieldset
        class="qr-choices qr-styles qr-frames"
        role="radiogroup"
        aria-labelledby="qr-frame-legend"
        aria-describedby={styleError ? 'qr-frame-error' : undefined}
        aria-invalid={styleError ? 'true' : undefined}
      >
        <legend id="qr-frame-legend">Frame style</legend>
        <div class="qr-choice-row">
          {(['none', ...FRAME_STYLES] as const).map((style) => (
            <label key={style} class="qr-choice qr-style qr-frame-choice">
              <input type="radio" name="qr-frame-style" value={style} checked={chosen === style} onChange={() => choose(style)} />
              <span class="qr-sample" dangerouslySetInnerHTML={{ __html: FRAME_SAMPLES[style] }} />
              <span class="qr-choice-name">{FRAME_NAMES[style]}</span>
            </label>
          ))}
        </div>
        {styleError && (
          <p class="field-error" id="qr-frame-error">
            {styleError}
          </p>
        )}
      </fieldset>
      {frame && (
        <>
          <div class="field">
            <label for="field-frameOptions-text">Call to action</label>
            <input
              id="field-frameOptions-text"
              type="text"
              maxLength={FRAME_TEXT_MAX}
              placeholder={defaultFrameText(frame.style, 'en')}
              value={frame.text ?? ''}
              aria-invalid={textError ? 'true' : undefined}
              aria-describedby="field-frameOptions-text-hint"
              onInput={(e) => withFrame({ text: e.currentTarget.value })}
            />
            <span class={textError ? 'field-error' : 'hint'} id="field-frameOptions-text-hint">
              {textError ?? `Up to ${FRAME_TEXT_MAX} characters. Empty: the default, in the language of the link's page.`}
            </span>
          </div>
          <Swatches
            name="qr-frame-colour"
            label="Frame colour"
            hint={frame.color ? undefined : "Now the code's colour."}
            colours={CODE_COLOURS}
            value={frame.color ? hexColor(frame.color) : null}
            shown={hexColor(frame.color ?? dotsColour)}
            onChoose={(color) => withFrame({ color })}
          />
          {frame.color && (
            <button type="button" class="ghost" onClick={() => withFrame({ color: undefined })}>
              Use the code's colour
            </button>
          )}
          {errors['frameOptions.color'] && <p class="field-error">{errors['frameOptions.color']}</p>}
        </>
      )}
    </>
  );
}

/** Colour, or a two-colour gradient with its angle, for one painted layer. */
function FillFields({
  part,
  noun,
  value,
  onChange,
  errors,
}: {
  part: FillPart;
  noun: string;
  value: QrOptions;
  onChange(next: QrOptions): void;
  errors: FieldErrors;
}) {
  const fill = fillControls(value, part);
  const update = (patch: Partial<FillControls>) => onChange(withFill(value, part, { ...fill, ...patch }));
  const colorInput = (path: string, label: string, current: string, key: 'color' | 'from' | 'to') => (
    <Field path={path} label={label} errors={errors}>
      {(input) => <input {...input} type="color" value={hexColor(current)} onInput={(e) => update({ [key]: e.currentTarget.value })} />}
    </Field>
  );
  return (
    <div class="qr-fill">
      <Field path={`${part}.fill`} label={`${noun} fill`} errors={errors}>
        {(input) => (
          <select {...input} value={fill.mode} onChange={(e) => update({ mode: e.currentTarget.value as FillControls['mode'] })}>
            <option value="solid">Solid colour</option>
            <option value="linear">Linear gradient</option>
            <option value="radial">Radial gradient</option>
          </select>
        )}
      </Field>
      {fill.mode === 'solid' ? (
        colorInput(`${part}.color`, `${noun} colour`, fill.color, 'color')
      ) : (
        <>
          {colorInput(`${part}.gradient.colorStops.0.color`, `${noun} gradient start`, fill.from, 'from')}
          {colorInput(`${part}.gradient.colorStops.1.color`, `${noun} gradient end`, fill.to, 'to')}
          {fill.mode === 'linear' && (
            <Field path={`${part}.gradient.rotation`} label={`${noun} gradient angle (degrees)`} errors={errors}>
              {(input) => (
                <input
                  {...input}
                  type="number"
                  min={0}
                  max={360}
                  step={15}
                  value={fill.degrees}
                  onInput={(e) => update({ degrees: numberOr(e.currentTarget.value, 0) })}
                />
              )}
            </Field>
          )}
        </>
      )}
    </div>
  );
}

/** A whole-number input of one option. */
function NumberField(props: {
  path: string;
  label: string;
  hint?: string;
  errors: FieldErrors;
  value: number;
  min: number;
  max: number;
  step?: number;
  onValue(n: number): void;
}) {
  return (
    <Field path={props.path} label={props.label} errors={props.errors} hint={props.hint}>
      {(input) => (
        <input
          {...input}
          type="number"
          min={props.min}
          max={props.max}
          step={props.step ?? 1}
          value={props.value}
          onInput={(e) => props.onValue(numberOr(e.currentTarget.value, props.value))}
        />
      )}
    </Field>
  );
}

function Advanced({
  value,
  onChange,
  errors,
  data,
}: {
  value: QrOptions;
  onChange(next: QrOptions): void;
  errors: FieldErrors;
  data: string;
}) {
  const opts = resolved(value, data);
  const set = <S extends 'dotsOptions' | 'backgroundOptions' | 'qrOptions'>(section: S, patch: NonNullable<QrOptions[S]>) =>
    onChange(withSection(value, section, patch));
  return (
    <>
      <fieldset class="group">
        <legend>Colours of each part</legend>
        <FillFields part="dotsOptions" noun="Dot" value={value} onChange={onChange} errors={errors} />
        <FillFields part="cornersSquareOptions" noun="Corner square" value={value} onChange={onChange} errors={errors} />
        <FillFields part="cornersDotOptions" noun="Corner dot" value={value} onChange={onChange} errors={errors} />
        <FillFields part="backgroundOptions" noun="Background" value={value} onChange={onChange} errors={errors} />
      </fieldset>
      <fieldset class="group">
        <legend>Size and shape</legend>
        <NumberField
          path="margin"
          label="Margin around the code (pixels)"
          hint="The QR standard asks for 4 modules of plain space around the code; the looks leave that."
          errors={errors}
          value={value.margin ?? DEFAULT_MARGIN}
          min={0}
          max={1000}
          onValue={(margin) => onChange({ ...value, margin })}
        />
        <NumberField
          path="width"
          label="Width (pixels)"
          hint="Of the image the API serves; downloads choose their own size."
          errors={errors}
          value={opts.width}
          min={16}
          max={4096}
          onValue={(width) => onChange({ ...value, width })}
        />
        <NumberField
          path="height"
          label="Height (pixels)"
          errors={errors}
          value={opts.height}
          min={16}
          max={4096}
          onValue={(height) => onChange({ ...value, height })}
        />
        <Field path="shape" label="Outline" errors={errors}>
          {(input) => (
            <select
              {...input}
              value={opts.shape}
              onChange={(e) => onChange({ ...value, shape: e.currentTarget.value as typeof opts.shape })}
            >
              <option value="square">Square</option>
              <option value="circle">Circle (the code inside a round badge)</option>
            </select>
          )}
        </Field>
        <NumberField
          path="backgroundOptions.round"
          label="Background corner rounding (%)"
          errors={errors}
          value={Math.round(opts.backgroundOptions.round * 100)}
          min={0}
          max={100}
          step={5}
          onValue={(round) => set('backgroundOptions', { round: round / 100 })}
        />
        <div class="check">
          <input
            id="field-dotsOptions-roundSize"
            type="checkbox"
            checked={opts.dotsOptions.roundSize}
            onChange={(e) => set('dotsOptions', { roundSize: e.currentTarget.checked })}
          />
          <label for="field-dotsOptions-roundSize">Whole-pixel modules (sharper edges)</label>
        </div>
      </fieldset>
      <fieldset class="group">
        <legend>Encoding</legend>
        <Field
          path="qrOptions.errorCorrectionLevel"
          label="Error correction"
          errors={errors}
          hint="Higher levels survive more damage and bigger logos, at the cost of a denser code."
        >
          {(input) => (
            <select
              {...input}
              value={opts.qrOptions.errorCorrectionLevel}
              onChange={(e) =>
                set('qrOptions', { errorCorrectionLevel: e.currentTarget.value as (typeof ERROR_CORRECTION_LEVELS)[number] })
              }
            >
              {ERROR_CORRECTION_LEVELS.map((level) => (
                <option key={level} value={level}>
                  {LEVEL_LABELS[level]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <NumberField
          path="qrOptions.typeNumber"
          label="Version (0 = the smallest that fits)"
          errors={errors}
          value={opts.qrOptions.typeNumber}
          min={0}
          max={40}
          onValue={(typeNumber) => set('qrOptions', { typeNumber })}
        />
        <Field path="qrOptions.mode" label="Encoding mode" errors={errors}>
          {(input) => (
            <select
              {...input}
              value={opts.qrOptions.mode}
              onChange={(e) => set('qrOptions', { mode: e.currentTarget.value as (typeof MODES)[number] })}
            >
              {MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {mode}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field path="type" label="Drawn by the API as" errors={errors}>
          {(input) => (
            <select {...input} value={opts.type} onChange={(e) => onChange({ ...value, type: e.currentTarget.value as typeof opts.type })}>
              {DRAW_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          )}
        </Field>
      </fieldset>
    </>
  );
}

function LogoFields({ value, onChange, errors }: { value: QrOptions; onChange(next: QrOptions): void; errors: FieldErrors }) {
  const [problem, setProblem] = useState<string | null>(null);
  const opts = resolved(value, 'x');
  const choose = (file: File | undefined) => {
    if (!file) return;
    const why = logoFileProblem(file);
    setProblem(why);
    if (why) return;
    const reader = new FileReader();
    reader.onload = () => onChange({ ...value, image: String(reader.result) });
    reader.onerror = () => setProblem('The file could not be read.');
    reader.readAsDataURL(file);
  };
  const imageError = problem ?? errors.image;
  const remote = value.image && /^https?:/i.test(value.image) ? value.image : '';
  return (
    <>
      <Field
        path="image"
        label="Logo image"
        errors={imageError ? { image: imageError } : NO_ERRORS}
        hint="PNG, JPEG, GIF, WebP or SVG, up to 1.5 MB; kept inside the design."
      >
        {(input) => <input {...input} type="file" accept={LOGO_TYPES.join(',')} onChange={(e) => choose(e.currentTarget.files?.[0])} />}
      </Field>
      <div class="field">
        <label for="qr-logo-url">Or the address of a logo on the web</label>
        <input
          id="qr-logo-url"
          type="url"
          inputMode="url"
          placeholder="https://"
          value={remote}
          onChange={(e) => onChange({ ...value, image: e.currentTarget.value.trim() || null })}
        />
      </div>
      {value.image && (
        <button type="button" class="small" onClick={() => onChange({ ...value, image: null })}>
          Remove the logo
        </button>
      )}
      <fieldset disabled={!value.image} class="qr-logo-options">
        <legend class="visually-hidden">Logo options</legend>
        <NumberField
          path="imageOptions.imageSize"
          label="Logo size (% of what error correction allows)"
          errors={errors}
          value={Math.round(opts.imageOptions.imageSize * 100)}
          min={10}
          max={100}
          step={5}
          onValue={(size) => onChange(withSection(value, 'imageOptions', { imageSize: size / 100 }))}
        />
        <NumberField
          path="imageOptions.margin"
          label="Space around the logo (pixels)"
          errors={errors}
          value={opts.imageOptions.margin}
          min={0}
          max={50}
          onValue={(margin) => onChange(withSection(value, 'imageOptions', { margin }))}
        />
        <div class="check">
          <input
            id="field-imageOptions-hideBackgroundDots"
            type="checkbox"
            checked={opts.imageOptions.hideBackgroundDots}
            onChange={(e) => onChange(withSection(value, 'imageOptions', { hideBackgroundDots: e.currentTarget.checked }))}
          />
          <label for="field-imageOptions-hideBackgroundDots">Hide the dots behind the logo</label>
        </div>
        {remote && (
          <Field path="imageOptions.crossOrigin" label="Fetch the logo" errors={errors}>
            {(input) => (
              <select
                {...input}
                value={opts.imageOptions.crossOrigin}
                onChange={(e) =>
                  onChange(withSection(value, 'imageOptions', { crossOrigin: e.currentTarget.value as (typeof CROSS_ORIGINS)[number] }))
                }
              >
                <option value="anonymous">Without credentials (anonymous)</option>
                <option value="use-credentials">With credentials (use-credentials)</option>
              </select>
            )}
          </Field>
        )}
      </fieldset>
    </>
  );
}
