/**
 * The API token, kept in sessionStorage: it lives as long as this tab, is never written to disk
 * by the app, and no other tab or site can read it. It is sent only to this page's own origin.
 */
const KEY = 'contacts-web.token';

export const readToken = (): string => sessionStorage.getItem(KEY) ?? '';
export const saveToken = (token: string): void => sessionStorage.setItem(KEY, token);
export const forgetToken = (): void => sessionStorage.removeItem(KEY);
