/** Placeholder until this screen's work lands (issue 7/8); replaced by its owner. */
export function SettingsScreen() {
  return <section className="card" data-testid="screen-settings" />;
}
