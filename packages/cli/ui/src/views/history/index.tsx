import { registerView, type ViewProps } from '../registry.js';

function HistoryView(_props: ViewProps) {
  return <div data-testid="history-view">History</div>;
}

registerView({ id: 'history', title: 'History', enabled: () => true, component: HistoryView });
