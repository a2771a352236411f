/** Placeholder until this screen's work lands (issue 7/8); replaced by its owner. */
export function NewShipmentScreen() {
  return <section className="card" data-testid="screen-newShipment" />;
}
