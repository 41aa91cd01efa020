import { useEffect, useState } from 'preact/hooks';
import { parseRoute, type Route } from './lib/route';

/** The page the URL's fragment names, following the browser's back and forward. */
export const useRoute = (): Route => {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
};

export const navigate = (href: string): void => {
  location.hash = href;
};
