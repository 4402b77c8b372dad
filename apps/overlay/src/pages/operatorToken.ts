/**
 * The operator token arrives in the page's URL (`?token=…`, as `muster start` prints it). It is taken out
 * of the address bar at once (so it is not in a screenshot, a shared screen or the browser history) and
 * kept in this tab's sessionStorage, so a reload still works.
 */
const KEY = 'muster-operator-token';

export function takeOperatorToken(): string | undefined {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      sessionStorage.setItem(KEY, fromUrl);
    } catch {
      // storage disabled: the token then lives only as long as the page
    }
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}
