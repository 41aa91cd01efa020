/** The signed-in tab's token: kept in this tab's sessionStorage only, never in a URL. */
const KEY = 'hawser.console.token';

export const savedToken = (): string | null => sessionStorage.getItem(KEY);
export const saveToken = (token: string): void => sessionStorage.setItem(KEY, token);
export const forgetToken = (): void => sessionStorage.removeItem(KEY);
