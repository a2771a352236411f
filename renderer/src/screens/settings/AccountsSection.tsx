/** Settings → Accounts: the companies on this station, their logins, and adding one. */
import { useT } from '../../i18n';
import { useAccounts } from '../../state/accountsStore';
import { AccountRow } from './AccountRow';
import { AddAccountForm } from './AddAccountForm';
import { Notice } from './Field';

export function AccountsSection() {
  const t = useT();
  const { accounts, loaded, error } = useAccounts();
  return (
    <div className="set-section" data-testid="settings-accounts">
      <h2>{t('accounts.title')}</h2>
      {error && <Notice kind="bad">{error}</Notice>}
      {loaded && accounts.length === 0 && <p>{t('accounts.empty')}</p>}
      <ul className="acct-list">
        {accounts.map((a) => (
          <AccountRow key={a.id} account={a} />
        ))}
      </ul>
      <AddAccountForm />
    </div>
  );
}
