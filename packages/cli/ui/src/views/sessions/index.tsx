import { registerView, type ViewProps } from '../registry.js';

function SessionsView(_props: ViewProps) {
  return <div data-testid="sessions-view">Sessions</div>;
}

registerView({ id: 'sessions', title: 'Sessions', enabled: () => true, component: SessionsView });
