/**
 * Creating and editing a link: `#/links/new` chooses one of the 16 types, `#/links/new?type=wifi`
 * and `#/links/<slug>/edit` show its form. Loaded on demand from the Links screen. The mapping
 * between the form and the API lives in links/link-form.ts; this screen loads, submits and places
 * the API's errors at their fields.
 */
import { markedShortUrl } from '#domain/links/source-marker.js';
import { scopeBlock } from '../access.js';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { Field } from '../fields/Field.js';
import { errorsUnder, fieldErrorsOf, NO_ERRORS, unplacedErrors, type FieldErrors } from '../fields/errors.js';
import type { FileInfo } from '../links/FileDrop.js';
import { draftOf, formPaths, linkBodyOf, TYPE_FORMS, type Draft, type StoredLink } from '../links/link-form.js';
import { LinkHistory } from '../links/LinkHistory.js';
import { LinkSettings } from '../links/LinkSettings.js';
import { Placements } from '../links/Placements.js';
import { isPageLookPath, pageLookFromLink, pageStyleOf } from '../links/page-look.js';
import { PageLook } from '../links/PageLook.js';
import { dataWithRules, isRulesPath, rulesFromData } from '../links/rules.js';
import { RulesEditor } from '../links/RulesEditor.js';
import { isSettingsPath, linkConfigurationsOf, settingsFromLink, shortUrlOf } from '../links/settings.js';
import { baseOn, defaultChoice, domainChoices } from '../domains/domains.js';
import { useDomains } from '../domains/use-domains.js';
import { TypeFields } from '../links/TypeFields.js';
import { sendsUtm, utmFormOf, utmOf } from '../links/utm.js';
import { UtmSection } from '../links/UtmSection.js';
import { LINK_TYPES, type EditorRoute } from '../links/view.js';
import { isLinkType, type LinkType } from '#domain/links/data/types.js';
import { goTo, useRoute, useStillShown } from '../router.js';
import { useEdited, useUnsavedGuard } from '../unsaved.js';
import { lazyComponent } from '../lazy.js';
import type { QrOptions } from '../qr/design.js';
import '../links/editor.css';

// The designer brings the QR renderer; the form shows at once and the designer follows.
const QrDesigner = lazyComponent(() => import('../qr/QrDesigner.js').then((m) => m.QrDesigner), 'QR designer');
const qrOptionsOf = (link: StoredLink | null) => import('../qr/looks.js').then((m) => m.designOf(link));

interface Props {
  me: Me;
  route: EditorRoute;
}

export function LinkEditor({ me, route }: Props) {
  const query = new URLSearchParams(useRoute().split('?')[1] ?? '');
  if (route.mode === 'edit') return <EditLink me={me} slug={route.slug} notice={CREATED_NOTICES[query.get('saved') ?? ''] ?? ''} />;
  const type = query.get('type');
  if (type === null) return <TypeChooser />;
  if (!isLinkType(type)) {
    return (
      <NotFound title="No such link type">
        <p>
          “{type}” is not a type of link. <a href="#/links/new">Choose one of the 16 types</a>.
        </p>
      </NotFound>
    );
  }
  return <LinkForm key={type} me={me} type={type} link={null} />;
}

function NotFound({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="link-editor-page" aria-labelledby="editor-title">
      <h1 id="editor-title">{title}</h1>
      {children}
    </section>
  );
}

function TypeChooser() {
  return (
    <section class="link-editor-page" aria-labelledby="editor-title">
      <p>
        <a href="#/links">Back to links</a>
      </p>
      <h1 id="editor-title">New link</h1>
      <p>Choose what the QR code does when it is scanned.</p>
      <ul class="type-cards">
        {LINK_TYPES.map((type) => (
          <li key={type}>
            <a href={`#/links/new?type=${type}`}>
              <strong>{TYPE_FORMS[type].label}</strong>
              <span>{TYPE_FORMS[type].description}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The link, or why it could not be had; each names the slug it was asked for. */
type Loading =
  | { phase: 'loading' }
  | { phase: 'error'; slug: string; message: string; missing: boolean }
  | { phase: 'ready'; slug: string; link: StoredLink };
const LOADING: Loading = { phase: 'loading' };

/** What the edit page says after the create that led to it (`?saved=…`). */
const CREATED_NOTICES: Readonly<Record<string, string>> = {
  created: 'Link created.',
  'created-without-design':
    'Link created with the standard QR design: the API refused the design you chose. Change it beside the form and save.',
};

/**
 * The edit page of the link at `slug`. The address can move to another link's page with this one
 * still on screen (a bookmark, an in-app link, Back or Forward): the form is the loaded link's,
 * keyed on its id, and until the link at the new address is loaded no form is shown, so the one
 * left behind cannot be edited or saved in its place.
 */
function EditLink({ me, slug, notice }: { me: Me; slug: string; notice: string }) {
  const client = useMemo(signedInClient, []);
  const [loaded, setLoaded] = useState<Loading>(LOADING);
  useEffect(() => {
    // A link just saved under a new slug is already here: its form stays, with its "Changes saved."
    if (loaded.phase === 'ready' && loaded.link.dynamic_link_id === slug) return;
    // Another link's page, or this one's again after another's (Back): read afresh, the form shown only then.
    setLoaded(LOADING);
    // An answer for an address already left is dropped, whichever comes back first.
    let current = true;
    client
      .GET('/api/v1/links/{id}', { params: { path: { id: slug } } })
      .then(({ data, error, response }) => {
        if (!current) return;
        setLoaded(
          data
            ? { phase: 'ready', slug, link: data.data }
            : { phase: 'error', slug, message: problemText(response.status, error), missing: response.status === 404 },
        );
      })
      .catch(() => current && setLoaded({ phase: 'error', slug, message: UNREACHABLE, missing: false }));
    return () => {
      current = false;
    };
  }, [client, slug]);
  // The link as its form saved it: when the save gave it a new slug, the address the form moves to is this link's.
  const saved = (link: StoredLink) => setLoaded((now) => (now.phase === 'ready' && now.link.id === link.id ? { ...now, link } : now));
  const here = loaded.phase !== 'loading' && (loaded.slug === slug || (loaded.phase === 'ready' && loaded.link.dynamic_link_id === slug));
  const loading = here ? loaded : LOADING;
  if (loading.phase === 'loading') return <p class="loading">Loading the link…</p>;
  if (loading.phase === 'error') {
    return (
      <NotFound title={loading.missing ? 'No such link' : 'The link could not be loaded'}>
        <p role="alert">
          {loading.missing ? `There is no link ${slug} in this account.` : loading.message} <a href="#/links">Back to links</a>
        </p>
      </NotFound>
    );
  }
  const type = loading.link.type;
  if (!isLinkType(type)) return <NotFound title="This link cannot be edited here">{`Its type, ${type}, has no form.`}</NotFound>;
  return <LinkForm key={loading.link.id} me={me} type={type} link={loading.link} notice={notice} onSaved={saved} />;
}

/** What a link's stored files are, for showing the ones its data names. */
const filesOf = (link: StoredLink | null): Record<string, FileInfo> =>
  Object.fromEntries(
    (link?.files ?? []).map((f) => [
      f.fileId,
      { name: f.contentType === 'application/pdf' ? 'a stored PDF' : 'a stored image', contentType: f.contentType, size: f.size },
    ]),
  );

interface FormProps {
  me: Me;
  type: LinkType;
  link: StoredLink | null;
  notice?: string;
  /** The link as a save left it. */
  onSaved?(link: StoredLink): void;
}

function LinkForm({ me, type, link: loaded, notice: initialNotice = '', onSaved }: FormProps) {
  const client = useMemo(signedInClient, []);
  const shown = useStillShown();
  const [link, setLink] = useState(loaded);
  const [name, setName] = useState(loaded?.name ?? '');
  const [draft, setDraft] = useState<Draft>(() => draftOf(type, loaded?.meta_data ?? null));
  const [files, setFiles] = useState<Record<string, FileInfo>>(() => filesOf(loaded));
  const [settings, setSettings] = useState(() => settingsFromLink(loaded));
  const domains = useDomains();
  const choices = useMemo(() => (domains ? domainChoices(me.shortUrlBase, domains, loaded?.domain ?? null) : []), [domains]);
  // A new link is on the account's default domain until another is picked; derived rather than
  // stored, so the domains arriving is not an edit.
  const withDomain =
    settings.domain === null && domains && !link ? { ...settings, domain: defaultChoice(me.shortUrlBase, domains) } : settings;
  const [look, setLook] = useState(() => pageLookFromLink(loaded));
  const [rules, setRules] = useState(() => rulesFromData(loaded?.meta_data));
  const [utm, setUtm] = useState(() => utmFormOf(loaded));
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  // The design as stored (null until read), and as the owner has it now; it is saved only when they differ.
  const [storedQr, setStoredQr] = useState<string | null>(null);
  const [qr, setQr] = useState<QrOptions | null>(null);
  const [problem, setProblem] = useState('');
  const [notice, setNotice] = useState(initialNotice);
  const [busy, setBusy] = useState(false);
  // Saves so far: the history is read again after each.
  const [saves, setSaves] = useState(0);
  const summary = useRef<HTMLDivElement>(null);
  const block = scopeBlock(me, link ? 'links.update' : 'links.create');
  // Changed since the link (and its design) were loaded or saved: leaving then asks first (not while a save is on its way).
  useUnsavedGuard(useEdited({ name, draft, settings, look, rules, utm, qr }, [link, storedQr]) && !busy);
  const paths = formPaths(type, draft);
  const unplaced = unplacedErrors(
    errors,
    (path) =>
      paths.has(path) ||
      isSettingsPath(path) ||
      isPageLookPath(path) ||
      (type === 'smart-url' && isRulesPath(path)) ||
      (sendsUtm(type) && path.startsWith('utm.')) ||
      path.startsWith('qrCode.'),
  );

  useEffect(() => {
    void qrOptionsOf(loaded).then((options) => {
      // A new link has no design stored yet: the one it starts from is saved with it.
      setStoredQr(JSON.stringify(loaded ? options : {}));
      setQr(options);
    });
  }, []);

  /** PATCHes the design when it changed; the error in words, or null when saved or unchanged. */
  const saveQr = async (slug: string): Promise<{ message: string; errors: FieldErrors } | null> => {
    if (!qr || JSON.stringify(qr) === storedQr) return null;
    const { data, error, response } = await client.PATCH('/api/v1/links/{id}', { params: { path: { id: slug } }, body: { qrCode: qr } });
    if (!data) return { message: problemText(response.status, error), errors: fieldErrorsOf(error) };
    setStoredQr(JSON.stringify(qr));
    return null;
  };

  const fail = (message: string, fieldErrors: FieldErrors) => {
    if (!shown.current) return;
    setErrors(fieldErrors);
    setProblem(message);
    // The first invalid field, or the summary when the errors have no field here.
    requestAnimationFrame(() => (document.querySelector<HTMLElement>('.link-form [aria-invalid="true"]') ?? summary.current)?.focus());
  };

  const submit = async () => {
    setBusy(true);
    setNotice('');
    setProblem('');
    const configurations = linkConfigurationsOf(settings);
    const pageStyle = pageStyleOf(look);
    if ('errors' in configurations || 'errors' in pageStyle) {
      setBusy(false);
      return fail('Some settings need fixing.', {
        ...('errors' in configurations ? configurations.errors : {}),
        ...('errors' in pageStyle ? pageStyle.errors : {}),
      });
    }
    const body = linkBodyOf(type, name, draft, configurations.value);
    if (pageStyle.value !== undefined) body.pageStyle = pageStyle.value;
    if (withDomain.domain !== null) body.domain = withDomain.domain;
    if (type === 'smart-url') body.data = dataWithRules(body.data, rules);
    // Other types have no destination to tag: what they have stored stays as it is.
    if (sendsUtm(type)) {
      body.utm = utmOf(utm.values);
      body.queryPolicy = utm.queryPolicy;
    }
    try {
      if (link) {
        const { data, error, response } = await client.PUT('/api/v1/links/{id}', { params: { path: { id: link.dynamic_link_id } }, body });
        if (!data) return fail(problemText(response.status, error), fieldErrorsOf(error));
        const qrFailure = await saveQr(data.data.dynamic_link_id);
        // Saved; if the page was left meanwhile, the page shown now is another's and stays as it is.
        if (!shown.current) return;
        onSaved?.(data.data);
        setErrors(qrFailure?.errors ?? NO_ERRORS);
        setLink(data.data);
        setDraft(draftOf(type, data.data.meta_data));
        setSettings(settingsFromLink(data.data));
        setLook(pageLookFromLink(data.data));
        setRules(rulesFromData(data.data.meta_data));
        setUtm(utmFormOf(data.data));
        setNotice(qrFailure ? `Changes saved, except the QR design: ${qrFailure.message}` : 'Changes saved.');
        setSaves((n) => n + 1);
        if (data.data.dynamic_link_id !== link.dynamic_link_id) goTo(`#/links/${encodeURIComponent(data.data.dynamic_link_id)}/edit`);
      } else {
        const { data, error, response } = await client.POST('/api/v1/links', { body });
        if (!data) return fail(problemText(response.status, error), fieldErrorsOf(error));
        // A design the API refuses leaves the link made with the default one; its edit page says so.
        const qrFailure = await saveQr(data.id);
        if (!shown.current) return;
        goTo(`#/links/${encodeURIComponent(data.id)}/edit?saved=${qrFailure ? 'created-without-design' : 'created'}`);
      }
    } catch {
      fail(UNREACHABLE, NO_ERRORS);
    } finally {
      setBusy(false);
    }
  };

  const form = TYPE_FORMS[type];
  return (
    <div class="link-editor">
      <section class="link-editor-page" aria-labelledby="editor-title">
        <p>
          <a href="#/links">Back to links</a>
          {!link && (
            <>
              {' · '}
              <a href="#/links/new">Choose another type</a>
            </>
          )}
        </p>
        <h1 id="editor-title">{link ? `Edit ${link.name}` : `New ${form.label.toLowerCase()} link`}</h1>
        {link && (
          <p class="hint">
            {form.label} link at <a href={link.full_dynamic_url}>{link.full_dynamic_url.replace(/^https?:\/\//, '')}</a>
            {' · '}
            <a href={`#/analytics/${encodeURIComponent(link.dynamic_link_id)}`}>Its scans and analytics</a>
          </p>
        )}
        <p role="status" class={notice ? 'notice' : undefined}>
          {notice}
        </p>
        <div ref={summary} tabIndex={-1} role="alert" class={problem ? 'form-problem' : undefined}>
          {problem && <p>{link ? 'The changes were not saved.' : 'The link was not created.'} Check the fields marked below.</p>}
          {unplaced.length > 0 && (
            <ul>
              {unplaced.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
          {problem && Object.keys(errors).length === 0 && <p>{problem}</p>}
        </div>
        {block && <p class="hint">{block}</p>}
        <form
          class="link-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Field path="name" label="Name" errors={errors} hint="For you: it is shown in your list of links, not to people who scan.">
            {(input) => <input {...input} value={name} maxLength={255} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <TypeFields
            type={type}
            draft={draft}
            errors={errors}
            files={files}
            update={setDraft}
            onFile={(id, info) => setFiles((known) => ({ ...known, [id]: info }))}
          />
          {type === 'smart-url' && (
            <RulesEditor value={rules} onChange={setRules} errors={errors} defaultUrl={String(draft.values.defaultUrl ?? '')} />
          )}
          {sendsUtm(type) && (
            <UtmSection
              me={me}
              value={utm}
              onChange={setUtm}
              errors={errors}
              destination={String(draft.values[type === 'website' ? 'url' : 'defaultUrl'] ?? '')}
            />
          )}
          <LinkSettings value={withDomain} onChange={setSettings} errors={errors} shortUrlBase={me.shortUrlBase} domains={choices} />
          {type !== 'menu' && (
            <PageLook
              value={look}
              onChange={setLook}
              errors={errors}
              files={files}
              onFile={(id, info) => setFiles((known) => ({ ...known, [id]: info }))}
            />
          )}
          <button type="submit" disabled={busy || block !== null}>
            {busy ? 'Saving…' : link ? 'Save changes' : 'Create link'}
          </button>
        </form>
        {link && <LinkHistory slug={link.dynamic_link_id} version={saves} />}
      </section>
      <aside class="link-qr" aria-labelledby="qr-title">
        <h2 id="qr-title">QR code</h2>
        {!link && <p class="hint">The code will encode the link's short URL; its design is saved with the link.</p>}
        {qr ? (
          <QrDesigner
            value={qr}
            onChange={setQr}
            // With the source marker, as every code the api renders: scans of it are told from clicks on the link.
            data={markedShortUrl(
              link?.full_dynamic_url ??
                shortUrlOf(
                  withDomain.domain === null ? me.shortUrlBase : baseOn(me.shortUrlBase, withDomain.domain),
                  (settings.slugOn && settings.slug.trim()) || 'preview',
                ),
            )}
            name={name || 'qr-code'}
            me={me}
            errors={errorsUnder(errors, 'qrCode')}
            // Until the link exists the code encodes a placeholder, a short URL no link holds yet.
            downloadBlock={link ? undefined : 'Save the link to download its code: until then it has no short URL to encode.'}
            printFiles={
              link
                ? {
                    of: { link: link.dynamic_link_id },
                    // The server draws the PDF from the saved design.
                    block:
                      JSON.stringify(qr) === storedQr ? undefined : 'Save the link first: the print files are drawn from the saved design.',
                  }
                : { of: { link: '' }, block: 'Save the link to make its print files.' }
            }
          />
        ) : (
          <p class="loading" role="status">
            Loading the design…
          </p>
        )}
        {/* Beside the designer: each placement's code is this design, encoding the placement's URL. */}
        {link && <Placements me={me} slug={link.dynamic_link_id} linkName={link.name} />}
      </aside>
    </div>
  );
}
