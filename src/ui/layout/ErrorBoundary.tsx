/** Any render error lands here (SPEC §8): 'Unexpected Application Error'. Reset when the address changes. */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { StatusCard } from '../components/StatusPage';
import { buttonStyles } from '../components/styles';
import { PRODUCT_NAME } from '../../domain/constants';
import { paths } from '../../domain/routes';
import { ReleaseFirstScreen } from '../platform/firstScreen';

interface Props {
  children: ReactNode;
  /** A new key (the location) clears the error. */
  resetKey: string;
}

interface State {
  error: Error | null;
  resetKey: string;
}

export const UNEXPECTED_ERROR_TITLE = 'Unexpected Application Error';

export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(UNEXPECTED_ERROR_TITLE, error, info.componentStack);
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <main id="main" className="px-4">
        <ReleaseFirstScreen />
        <StatusCard
          title={UNEXPECTED_ERROR_TITLE}
          actions={
            <>
              <button type="button" className={buttonStyles.secondary} onClick={() => this.setState({ error: null })}>
                Try again
              </button>
              <a href={paths.root} className={buttonStyles.primary}>
                Go to {PRODUCT_NAME}
              </a>
            </>
          }
        >
          <p>Something went wrong while showing this page.</p>
          <pre className="overflow-x-auto rounded-lg bg-paper px-3 py-2 text-start text-xs whitespace-pre-wrap">{error.message}</pre>
        </StatusCard>
      </main>
    );
  }
}
