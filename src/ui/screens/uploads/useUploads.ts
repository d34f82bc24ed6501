/** The uploads page's data: the list (TanStack Query) and the upload / delete mutations, which refresh it. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LanguageCode } from '../../../domain/languages';
import { queryKeys } from '../../../api/queryKeys';
import { api } from '../../platform/api';

export function useUploadList() {
  return useQuery({ queryKey: queryKeys.uploads(), queryFn: ({ signal }) => api.listUploads({ signal }), retry: false });
}

export function useUploadText() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { file: File; title?: string; language?: LanguageCode }) => api.uploadText(input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.uploads() }),
  });
}

export function useDeleteUpload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slug: string) => api.deleteUpload(slug),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.uploads() }),
  });
}
