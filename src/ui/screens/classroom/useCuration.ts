/**
 * Teacher curation (SPEC §4 Title visibility): whether a title is ASSIGNED, and the command that flips it. Every
 * control of one title (card eye, detail button, Classroom Settings switch) shares one mutation key, so all of them
 * are disabled while it saves. A success shows 'Title shown to students' / 'Title hidden from students' and
 * refreshes the user titles (and the lists that depend on them); a failure shows 'Failed to update title
 * visibility'. The toasts go through the engine's toast queue.
 */
import { useIsMutating, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createMutations, isPersonalPublicationsKey, mutationKeys, queryKeys } from '../../../api';
import type { CurrentUser, UserTitle } from '../../../domain/schemas';
import { api, queries } from '../../platform/api';
import { useCurrentUser } from '../auth/session';
import { sendToEngineChild } from './classCodeState';
import { isAssigned, isTeacher, nextVisibility, VISIBILITY_TOASTS } from './classroom';

const mutations = createMutations(api);

/** The signed-in teacher's user titles (statuses); disabled for anyone else. */
export function useTeacherTitles(user: CurrentUser | null | undefined) {
  const teacher = isTeacher(user);
  return useQuery({ ...queries.userTitles({ userId: user?.id ?? '' }), enabled: teacher });
}

/** After a change: the user titles and every personal list (a teacher's filter, the Classroom Library). */
async function refreshAfterChange(client: QueryClient, row: UserTitle, userId: string) {
  client.setQueryData<UserTitle[]>(queryKeys.userTitles({ userId }), (old) =>
    old ? [...old.filter((t) => t.titleId !== row.titleId), row] : [row],
  );
  await Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.userTitlesAll() }),
    client.invalidateQueries({ predicate: (q) => isPersonalPublicationsKey(q.queryKey) }),
  ]);
}

export interface TitleCuration {
  /** The viewer is a teacher, so the controls show. */
  isTeacher: boolean;
  /** ASSIGNED: shown to students. */
  isAssigned: boolean;
  /** The statuses are still loading, or a change is saving: the controls are disabled. */
  isDisabled: boolean;
  isSaving: boolean;
  /** Flip ASSIGNED / BLOCKED. */
  toggle: () => void;
  /** Set a given visibility (the Classroom Settings switch). */
  setVisible: (visible: boolean) => void;
}

/** The curation state and command of one title. */
export function useTitleCuration(titleId: number): TitleCuration {
  const { data: user } = useCurrentUser();
  const client = useQueryClient();
  const titles = useTeacherTitles(user);
  const assigned = isAssigned(titles.data, titleId);
  const saving = useIsMutating({ mutationKey: mutationKeys.setTitleVisibility(titleId) }) > 0;
  const mutation = useMutation({
    ...mutations.setTitleVisibility(),
    mutationKey: mutationKeys.setTitleVisibility(titleId),
    onSuccess: async (row, variables) => {
      void sendToEngineChild('toasts', { type: 'toast.show', kind: 'success', message: variables.status === 'ASSIGNED' ? VISIBILITY_TOASTS.shown : VISIBILITY_TOASTS.hidden });
      if (user) await refreshAfterChange(client, row, user.id);
    },
    onError: (error) => {
      console.error(VISIBILITY_TOASTS.failed, error);
      void sendToEngineChild('toasts', { type: 'toast.show', kind: 'error', message: VISIBILITY_TOASTS.failed });
    },
  });
  const teacher = isTeacher(user);
  const disabled = !teacher || titles.isPending || saving;
  const setVisible = (visible: boolean) => {
    if (disabled || visible === assigned) return;
    mutation.mutate({ titleId, status: nextVisibility(assigned).status });
  };
  return {
    isTeacher: teacher,
    isAssigned: assigned,
    isDisabled: disabled,
    isSaving: saving,
    toggle: () => setVisible(!assigned),
    setVisible,
  };
}
