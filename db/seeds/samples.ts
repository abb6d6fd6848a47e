/** Realistic building blocks shared by the demo data set and the synthetic generator. */
export const firstNames = ['Ava', 'Liam', 'Sofia', 'Noah', 'Mia', 'Lucas', 'Emma', 'Mateo', 'Olivia', 'Ethan', 'Chloe', 'Amir', 'Yuki', 'Lena', 'Omar', 'Priya', 'Diego', 'Hana', 'Jonas', 'Zoe'];
export const lastNames = ['Garcia', 'Smith', 'Müller', 'Rossi', 'Tanaka', 'Okafor', 'Dubois', 'Silva', 'Kowalski', 'Nguyen', 'Haddad', 'Larsen', 'Patel', 'Cohen', 'Ibrahim'];
export const places = [
  { country: 'US', state: 'CA', city: 'San Francisco', locale: 'en_US', timezone: 'America/Los_Angeles' },
  { country: 'DE', state: 'BE', city: 'Berlin', locale: 'de_DE', timezone: 'Europe/Berlin' },
  { country: 'BR', state: 'SP', city: 'São Paulo', locale: 'pt_BR', timezone: 'America/Sao_Paulo' },
  { country: 'JP', state: '13', city: 'Tokyo', locale: 'ja_JP', timezone: 'Asia/Tokyo' },
  { country: 'FR', state: 'IDF', city: 'Paris', locale: 'fr_FR', timezone: 'Europe/Paris' },
] as const;
export const genders = ['male', 'female', 'unknown'] as const;
export const tagNames = ['VIP', 'Lead', 'Customer', 'Newsletter', 'Giveaway 2026', 'Abandoned cart', 'Wholesale', 'Influencer', 'Support', 'Webinar'];
export const customFieldDefs = [
  { name: 'Company', type: 'shortText', description: 'Where the contact works' },
  { name: 'Order count', type: 'number', description: 'Orders placed so far' },
  { name: 'Birthday', type: 'date', description: 'For the birthday coupon' },
  { name: 'Wants SMS', type: 'boolean', description: 'Opted in to SMS updates' },
  { name: 'Last question', type: 'longText', description: 'Most recent question asked in chat' },
];
export const errorActions = ['sendMessage', 'syncContact', 'webhook', 'runFlow', 'sendEmail', 'importLeads'];
export const errorDetails = [
  'Message failed: recipient is not reachable (code 551)',
  'Request timed out after 30000 ms',
  'Webhook responded with HTTP 500',
  'Rate limited by upstream network, retry scheduled',
  'Invalid phone number format for contact',
  'Token expired for connected page',
  'Flow step "Send image" failed: image too large',
  'Contact unsubscribed before delivery',
];
/** A conversation as the demo tells it: the contact asks, the business answers (in this order). */
export const demoExchange = ['Hi! Do you ship to Canada?', 'We do: 3 to 5 days, tracked.', 'Great, and is the spring collection in stock?', 'Most of it: the link in our bio has sizes and colours.'];
export const noteTexts = ['Asked about bulk pricing.', 'Prefers WhatsApp over email.', 'Follow up after the webinar.', 'Complained about shipping delay; refunded.', 'Interested in the spring collection.'];

export const automationOptions = {
  replyToNewContactsOnly: false,
  replyOncePerUserPerPost: true,
  likeUserComment: true,
  replyToUsersWhoCommentedOnOtherPosts: false,
  ignoreCommentReplies: true,
  trackUserTags: false,
};

export const hideNothing = {
  all: false,
  hasPhoneNumber: true,
  hasImage: false,
  hasVideo: false,
  hasLink: true,
  hasKeywords: false,
  keywords: [] as string[],
  showCommentsAfter: 'none',
};

/**
 * A dynamic image's layout: a framed avatar (the contact's, a default picture as fallback) and,
 * when a custom field is given, a caption with the contact's value of it. Satisfies the input rules
 * of src/domain/dynamic-images/dynamic-image.schema.ts (boxes inside the canvas, http(s) URLs).
 */
export const imageData = (customFieldId: number | null) => ({
  width: 1080,
  height: 1080,
  elements: [
    { id: 'el1', x: 40, y: 40, width: 200, height: 200, type: 'image', imageType: 'url', priority: false, url: 'https://cdn.example.com/avatar-frame.png', customFieldId: '', imageStyle: 'square' },
    { id: 'el2', x: 60, y: 60, width: 160, height: 160, type: 'image', imageType: 'avatar', priority: true, url: 'https://cdn.example.com/default-avatar.png', customFieldId: '', imageStyle: 'circle' },
    ...(customFieldId === null
      ? []
      : [{ id: 'el3', x: 40, y: 880, width: 1000, height: 120, type: 'text', priority: false, text: 'Welcome!', customFieldId: String(customFieldId), fontSize: 64, color: '#1F2937', align: 'center' }]),
  ],
});

/** The demo's greeting card: everything drawn locally (no picture to fetch), text in three faces, a QR code. */
export const greetingCardData = {
  width: 1080,
  height: 1080,
  backgroundColor: '#FFF7ED',
  elements: [
    { id: 'title', x: 80, y: 90, width: 920, height: 100, type: 'text', priority: false, text: 'Welcome aboard', customFieldId: '', fontSize: 72, color: '#9A3412', align: 'center', fontFamily: 'roboto', bold: true, italic: false, uppercase: true, fallback: '' },
    { id: 'name', x: 80, y: 260, width: 920, height: 200, type: 'text', priority: false, text: '{{full_name}}', customFieldId: '', fontSize: 120, color: '#1F2937', align: 'center', fontFamily: 'greatVibes', bold: false, italic: false, uppercase: false, fallback: 'dear friend' },
    { id: 'greeting', x: 80, y: 500, width: 920, height: 130, type: 'text', priority: false, text: 'Xin chào {{first_name}}, chúc bạn một ngày tốt lành!', customFieldId: '', fontSize: 48, color: '#374151', align: 'center', fontFamily: 'serif', bold: false, italic: true, uppercase: false, fallback: 'bạn' },
    { id: 'qr', x: 415, y: 700, width: 250, height: 250, type: 'qrCode', priority: false, text: 'https://demo.example/welcome?email={{email}}', color: '#111827' },
  ],
};
