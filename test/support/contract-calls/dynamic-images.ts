import type { CallTable } from './seed.js';

let imageIndex = 0;

/** A layout of each element kind, every box inside the 600 x 400 canvas. */
const layout = (fieldId: number) => ({
  width: 600,
  height: 400,
  elements: [
    { id: 'logo', x: 20, y: 20, width: 100, height: 100, type: 'image', imageType: 'url', url: 'https://cdn.example.com/logo.png' },
    { id: 'plan', x: 20, y: 300, width: 560, height: 80, type: 'text', text: 'Member', customFieldId: String(fieldId), fontSize: 48, color: '#112233', align: 'left' },
  ],
});

/**
 * Dynamic images: the seeded `Badge` is read, replaced and switched; `To delete` is deleted, so
 * every other call still finds the image it names, whatever the order; `Name tag` is rendered.
 */
export const dynamicImageCalls: CallTable = {
  'dynamicImages.create': (s) => ({
    method: 'POST',
    path: '/v1/dynamic-images',
    body: { name: `Created ${++imageIndex}`, customFieldId: String(s.customFields.plan), data: layout(s.customFields.plan) },
  }),
  'dynamicImages.get': (s) => ({ method: 'GET', path: `/v1/dynamic-images/${s.dynamicImages.badge}` }),
  'dynamicImages.update': (s) => ({
    method: 'PUT',
    path: `/v1/dynamic-images/${s.dynamicImages.badge}`,
    body: { name: 'Badge', customFieldId: null, backgroundUrl: 'https://cdn.example.com/bg.png', enabled: true, data: layout(s.customFields.plan) },
  }),
  'dynamicImages.setEnabled': (s) => ({ method: 'PATCH', path: `/v1/dynamic-images/${s.dynamicImages.badge}/enabled`, body: { enabled: false } }),
  'dynamicImages.delete': (s) => ({ method: 'DELETE', path: `/v1/dynamic-images/${s.dynamicImages.disposable}` }),
  // A PNG (the contract checker checks its media type); the contact by id.
  'dynamicImages.render': (s) => ({ method: 'GET', path: `/v1/dynamic-images/${s.dynamicImages.renderable}/render?contact=${s.contact}` }),
};
