import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ChatStore } from './store';
import type { Bridge } from './vscode';

export interface Services {
  bridge: Bridge;
  store: ChatStore;
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('useServices outside <ServicesContext.Provider>');
  return s;
}
