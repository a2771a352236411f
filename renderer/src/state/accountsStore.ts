/** The station's accounts (companies) as the core reports them; pushed on every change. */
import { create } from 'zustand';
import type { AccountView } from '../../../shared/contract/accounts';
import { errorTextNow } from '../i18n';
import { rpc } from '../rpc/transport';

interface AccountsState {
  accounts: AccountView[];
  loaded: boolean;
  error: string | null;
  load(): Promise<void>;
  setActive(accountId: string): Promise<void>;
}

export const useAccounts = create<AccountsState>((set) => ({
  accounts: [],
  loaded: false,
  error: null,
  async load() {
    const r = await rpc.request('accounts.list', {});
    set(r.ok ? { accounts: r.value, loaded: true, error: null } : { error: errorTextNow(r.error) });
  },
  async setActive(accountId) {
    const r = await rpc.request('accounts.setActive', { accountId });
    set(r.ok ? { accounts: r.value, error: null } : { error: errorTextNow(r.error) });
  },
}));

export const activeAccount = (s: { accounts: AccountView[] }) => s.accounts.find((a) => a.active) ?? null;

rpc.on('accounts.changed', (accounts) => useAccounts.setState({ accounts, loaded: true }));
