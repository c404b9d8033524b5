/**
 * The menu editor's dialogs for adding or editing a group, a category or a dish. Each checks what
 * it can first (menu.ts), then sends its request; the API's refusals land at the field they name,
 * anything else above the buttons. The dialog stays open until the save succeeds or is cancelled.
 */
import { useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { Field } from '../fields/Field.js';
import { fieldErrorsOf, NO_ERRORS, unplacedErrors, type FieldErrors } from '../fields/errors.js';
import { Dialog } from '../screens/Dialog.js';
import { ImageField } from './ImageField.js';
import { useEdited, useUnsavedGuard } from '../unsaved.js';
import {
  categoryBody,
  categoryDraftOf,
  COMMON_ALLERGENS,
  DIET_CHOICES,
  groupDraftOf,
  groupFormData,
  itemDraftOf,
  itemErrorsAt,
  itemFormData,
  SPICE_CHOICES,
  type Category,
  type CategoryDraft,
  type Group,
  type GroupDraft,
  type Item,
  type ItemDraft,
} from './menu.js';

type Client = ReturnType<typeof signedInClient>;
type Answer = { data?: { data: { name: string } }; error?: unknown; response: Response };

/** Errors keyed by the dialog's field paths (`item.name`): ids stay unique beside the profile form's. */
const under = (prefix: string, errors: Readonly<Record<string, string>>): FieldErrors =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [`${prefix}.${k}`, v]));

/**
 * A save's state: busy while awaited, errors at their fields, the rest in words. `send` answers
 * the saved entry's name, or the failed answer; a 413 or 415 (the file refused) is put at the image.
 */
function useSave(prefix: string, fields: readonly string[], onSaved: (name: string) => void) {
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const place = (byField: Readonly<Record<string, string>>) => {
    setErrors(under(prefix, byField));
    const rest = unplacedErrors(byField, (p) => fields.includes(p));
    setProblem(rest.length > 0 ? rest.join(' ') : null);
  };
  const save = async (send: () => Promise<Answer>, placeAnswer: (byPath: FieldErrors) => Record<string, string> = (e) => ({ ...e })) => {
    setBusy(true);
    try {
      const answer = await send();
      const { data, error, response } = answer;
      if (data) return onSaved(data.data.name);
      const byField = placeAnswer(fieldErrorsOf(error));
      if (Object.keys(byField).length > 0) return place(byField);
      if ((response.status === 413 || response.status === 415) && fields.includes('image'))
        return place({ image: problemText(response.status, error) });
      place({});
      setProblem(problemText(response.status, error));
    } catch {
      setProblem(UNREACHABLE);
    } finally {
      setBusy(false);
    }
  };
  return { errors, problem, busy, place, save };
}

/** A select's options from [value, label] pairs. */
const options = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.map(([value, label]) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));

const Check = ({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange(checked: boolean): void }) => (
  <div class="check">
    <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} />
    <label for={id}>{label}</label>
  </div>
);

export function GroupDialog({
  client,
  cafeId,
  group,
  onSaved,
  onCancel,
}: {
  client: Client;
  cafeId: string;
  group: Group | null;
  onSaved(name: string): void;
  onCancel(): void;
}) {
  const [draft, setDraft] = useState<GroupDraft>(() => groupDraftOf(group));
  const set = (change: Partial<GroupDraft>) => setDraft({ ...draft, ...change });
  const { errors, problem, busy, place, save } = useSave('group', ['name', 'image'], onSaved);
  useUnsavedGuard(useEdited(draft, null) && !busy);
  const submit = () => {
    const checked = groupFormData(draft);
    if ('errors' in checked) return place(checked.errors);
    // The form is sent as FormData; the OpenAPI document gives the multipart body its members as JSON.
    void save(() =>
      group
        ? client.PUT('/api/v1/cafes/{id}/groups/{groupId}', {
            params: { path: { id: cafeId, groupId: group.id } },
            body: checked.form as never,
          })
        : client.POST('/api/v1/cafes/{id}/groups', { params: { path: { id: cafeId } }, body: checked.form as never }),
    );
  };
  return (
    <Dialog
      title={group ? `Edit the group “${group.name}”` : 'Add a group'}
      submitLabel={group ? 'Save group' : 'Add group'}
      busy={busy}
      error={problem}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Field path="group.name" label="Group name" errors={errors} hint="A section of the menu page: Drinks, Food…">
        {(input) => <input {...input} value={draft.name} maxLength={255} onInput={(e) => set({ name: e.currentTarget.value })} />}
      </Field>
      <Check id="group-visible" label="Shown on the menu page" checked={draft.visible} onChange={(visible) => set({ visible })} />
      <ImageField
        path="group.image"
        label="Image"
        savedWith="group"
        current={group?.image ?? null}
        file={draft.image}
        remove={draft.deleteImage}
        errors={errors}
        onChange={(image, deleteImage) => set({ image, deleteImage })}
      />
    </Dialog>
  );
}

export function CategoryDialog({
  client,
  cafeId,
  category,
  groupId,
  groups,
  onSaved,
  onCancel,
}: {
  client: Client;
  cafeId: string;
  category: Category | null;
  /** The group a new category goes in. */
  groupId: string | null;
  groups: readonly Group[];
  onSaved(name: string): void;
  onCancel(): void;
}) {
  const [draft, setDraft] = useState<CategoryDraft>(() => categoryDraftOf(category, groupId));
  // A new category made whose image was then refused: saving again edits it rather than making another.
  const [made, setMade] = useState<Category | null>(null);
  const set = (change: Partial<CategoryDraft>) => setDraft({ ...draft, ...change });
  const { errors, problem, busy, place, save } = useSave('category', ['name', 'description', 'group_id', 'image'], onSaved);
  useUnsavedGuard(useEdited(draft, null) && !busy);
  const submit = () => {
    const target = category ?? made;
    const checked = categoryBody(draft, target !== null);
    if ('errors' in checked) return place(checked.errors);
    void save(async () => {
      const saved = target
        ? await client.PUT('/api/v1/cafes/{id}/categories/{categoryId}', {
            params: { path: { id: cafeId, categoryId: target.id } },
            body: checked.body,
          })
        : await client.POST('/api/v1/cafes/{id}/categories', { params: { path: { id: cafeId } }, body: checked.body });
      if (!saved.data || !draft.image) return saved;
      setMade(saved.data.data);
      // The image is a form of its own, sent once the category it belongs to is saved.
      const form = new FormData();
      form.append('image', draft.image);
      return client.PUT('/api/v1/cafes/{id}/categories/{categoryId}/image', {
        params: { path: { id: cafeId, categoryId: saved.data.data.id } },
        body: form as never,
      });
    });
  };
  return (
    <Dialog
      title={category ? `Edit the category “${category.name}”` : 'Add a category'}
      submitLabel={category ? 'Save category' : 'Add category'}
      busy={busy}
      error={problem}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Field path="category.name" label="Category name" errors={errors} hint="Coffee, Breakfast, Pastries…">
        {(input) => <input {...input} value={draft.name} maxLength={255} onInput={(e) => set({ name: e.currentTarget.value })} />}
      </Field>
      <Field path="category.description" label="Description (optional)" errors={errors}>
        {(input) => (
          <textarea
            {...input}
            rows={2}
            maxLength={1000}
            value={draft.description}
            onInput={(e) => set({ description: e.currentTarget.value })}
          />
        )}
      </Field>
      <Field path="category.group_id" label="Group" errors={errors}>
        {(input) => (
          <select {...input} value={draft.groupId} onChange={(e) => set({ groupId: e.currentTarget.value })}>
            {options([...groups.map((g) => [g.id, g.name] as const), ['', 'Not in a group']])}
          </select>
        )}
      </Field>
      <Check id="category-visible" label="Shown on the menu page" checked={draft.visible} onChange={(visible) => set({ visible })} />
      <ImageField
        path="category.image"
        label="Image"
        savedWith="category"
        current={category?.image ?? null}
        file={draft.image}
        remove={draft.deleteImage}
        errors={errors}
        onChange={(image, deleteImage) => set({ image, deleteImage })}
      />
    </Dialog>
  );
}

/** The item fields shown at a Field (itemErrorsAt's names); errors about the others are said above the buttons. */
const ITEM_FIELDS = [
  'categoryId',
  'name',
  'price',
  'currency',
  'description',
  'ingredients',
  'otherTags',
  'otherAllergens',
  'spiceLevel',
  'image',
];

export function ItemDialog({
  client,
  cafeId,
  item,
  start,
  categories,
  onSaved,
  onCancel,
}: {
  client: Client;
  cafeId: string;
  item: Item | null;
  /** A new dish's category and currency. */
  start: { categoryId: string; currency: string };
  categories: ReadonlyArray<{ id: string; name: string }>;
  onSaved(name: string): void;
  onCancel(): void;
}) {
  const [draft, setDraft] = useState<ItemDraft>(() => itemDraftOf(item ?? start));
  const set = (change: Partial<ItemDraft>) => setDraft({ ...draft, ...change });
  const toggle = (list: string[], entry: string, on: boolean) => (on ? [...list, entry] : list.filter((e) => e !== entry));
  const { errors, problem, busy, place, save } = useSave('item', ITEM_FIELDS, onSaved);
  useUnsavedGuard(useEdited(draft, null) && !busy);
  const submit = () => {
    const checked = itemFormData(draft);
    if ('errors' in checked) return place(checked.errors);
    void save(
      () =>
        item
          ? client.PUT('/api/v1/cafes/{id}/items/{itemId}', {
              params: { path: { id: cafeId, itemId: item.id } },
              body: checked.form as never,
            })
          : client.POST('/api/v1/cafes/{id}/items', { params: { path: { id: cafeId } }, body: checked.form as never }),
      itemErrorsAt,
    );
  };
  const text = (
    field: 'name' | 'price' | 'currency' | 'ingredients' | 'otherTags' | 'otherAllergens',
    label: string,
    extra: Record<string, unknown> = {},
    hint?: string,
  ) => (
    <Field path={`item.${field}`} label={label} errors={errors} hint={hint}>
      {(input) => <input {...input} {...extra} value={draft[field]} onInput={(e) => set({ [field]: e.currentTarget.value })} />}
    </Field>
  );
  return (
    <Dialog
      title={item ? `Edit the dish “${item.name}”` : 'Add a dish'}
      submitLabel={item ? 'Save dish' : 'Add dish'}
      busy={busy}
      error={problem}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <div class="item-form">
        {text('name', 'Dish name', { maxLength: 255 })}
        <div class="item-price">
          {text('price', 'Price', { inputMode: 'decimal' }, 'Such as 4.50')}
          {text('currency', 'Currency', { maxLength: 3, autoCapitalize: 'characters' }, 'EUR, USD…')}
        </div>
        <Field path="item.categoryId" label="Category" errors={errors}>
          {(input) => (
            <select {...input} value={draft.categoryId} onChange={(e) => set({ categoryId: e.currentTarget.value })}>
              {options(categories.map((c) => [c.id, c.name] as const))}
            </select>
          )}
        </Field>
        <Field path="item.description" label="Description (optional)" errors={errors}>
          {(input) => (
            <textarea
              {...input}
              rows={2}
              maxLength={2000}
              value={draft.description}
              onInput={(e) => set({ description: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field path="item.ingredients" label="Ingredients (optional)" errors={errors} hint="One per line, or separated by commas.">
          {(input) => (
            <textarea {...input} rows={2} value={draft.ingredients} onInput={(e) => set({ ingredients: e.currentTarget.value })} />
          )}
        </Field>
        <fieldset class="group choices">
          <legend>Dietary tags</legend>
          <p class="hint">Shown as badges, and guests can filter by them.</p>
          <div class="choice-grid">
            {DIET_CHOICES.map((d) => (
              <Check
                key={d.key}
                id={`item-diet-${d.key}`}
                label={d.label}
                checked={draft.diets.includes(d.key)}
                onChange={(on) => set({ diets: toggle(draft.diets, d.key, on) })}
              />
            ))}
          </div>
          {text('otherTags', 'Other tags (optional)', {}, 'Separated by commas: house special, seasonal…')}
        </fieldset>
        <fieldset class="group choices">
          <legend>Allergens</legend>
          <p class="hint">Guests can hide dishes with an allergen.</p>
          <div class="choice-grid">
            {COMMON_ALLERGENS.map((a) => (
              <Check
                key={a}
                id={`item-allergen-${a.toLowerCase()}`}
                label={a}
                checked={draft.allergens.includes(a)}
                onChange={(on) => set({ allergens: toggle(draft.allergens, a, on) })}
              />
            ))}
          </div>
          {text('otherAllergens', 'Other allergens (optional)', {}, 'Separated by commas.')}
        </fieldset>
        <Field path="item.spiceLevel" label="Spice level" errors={errors}>
          {(input) => (
            <select
              {...input}
              value={draft.spiceLevel}
              onChange={(e) => set({ spiceLevel: e.currentTarget.value as ItemDraft['spiceLevel'] })}
            >
              {options(SPICE_CHOICES.map((s) => [s.value, s.label] as const))}
            </select>
          )}
        </Field>
        <fieldset class="group choices">
          <legend>On the menu page</legend>
          <div class="choice-grid">
            <Check id="item-visible" label="Shown" checked={draft.visible} onChange={(visible) => set({ visible })} />
            <Check id="item-featured" label="Featured" checked={draft.featured} onChange={(featured) => set({ featured })} />
            <Check id="item-new" label="New" checked={draft.isNew} onChange={(isNew) => set({ isNew })} />
            <Check id="item-recommended" label="Recommended" checked={draft.recommended} onChange={(recommended) => set({ recommended })} />
          </div>
        </fieldset>
        <ImageField
          path="item.image"
          label="Photo"
          savedWith="dish"
          current={item?.image ?? null}
          file={draft.image}
          remove={draft.deleteImage}
          errors={errors}
          onChange={(image, deleteImage) => set({ image, deleteImage })}
        />
      </div>
    </Dialog>
  );
}
