import { useEffect, useState } from 'react';

const SEARCH_DELAY_MS = 300;

/**
 * What a search select asks the server for: the text typed, trimmed, once typing has paused (not on every
 * key). Returns the keyword and the select's `onSearch`.
 */
export function useTypedSearch(): [keyword: string, onSearch: (typed: string) => void] {
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  return [keyword, setTyped];
}
