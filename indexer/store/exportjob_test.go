package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExportJobPartsSurviveReopenAndNeverRepeat(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, dir)
	id := ExportJobID{1, 2, 3}
	job := ExportJob{ID: id, OperationID: "op", State: ExportRunning, CreatedAtMs: 1000, UpdatedAtMs: 1000}

	got, created, err := s.CreateExportJob(ctx, job)
	require.NoError(err)
	require.True(created)
	require.Equal(job.OperationID, got.OperationID)
	again, created, err := s.CreateExportJob(ctx, ExportJob{ID: id, OperationID: "other"})
	require.NoError(err)
	require.False(created, "a job is created once")
	require.Equal("op", again.OperationID)

	next := job
	next.Parts, next.Rows, next.HasAfter, next.AfterBlock = 1, 2, true, 7
	require.NoError(s.AppendExportPart(ctx, next, []byte("a,b\n")))
	// A writer that did not see the first part cannot write it again.
	require.ErrorIs(s.AppendExportPart(ctx, next, []byte("a,b\n")), errExportJobMoved)
	require.NoError(s.Close())

	// Reopened (a restart): the job resumes from its stored progress.
	s = openTest(t, dir)
	defer s.Close()
	stored, found, err := s.ExportJob(ctx, id)
	require.NoError(err)
	require.True(found)
	require.Equal(next, stored)
	more := stored
	more.Parts, more.State = 2, ExportCompleted
	require.NoError(s.AppendExportPart(ctx, more, []byte("c,d\n")))

	var body []byte
	require.NoError(s.ExportParts(ctx, id, more.Parts, func(p []byte) error { body = append(body, p...); return nil }))
	require.Equal("a,b\nc,d\n", string(body))
	require.Error(s.ExportParts(ctx, id, 3, func([]byte) error { return nil }), "a missing part is an error")

	jobs, err := s.ExportJobs(ctx)
	require.NoError(err)
	require.Len(jobs, 1)
	require.Equal(ExportCompleted, jobs[0].State)

	require.NoError(s.DeleteExportJob(ctx, id))
	_, found, err = s.ExportJob(ctx, id)
	require.NoError(err)
	require.False(found)
	require.Error(s.ExportParts(ctx, id, 1, func([]byte) error { return nil }))
}

func TestFirstEVMBlockAtOrAfter(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	for range 9 {
		applyEVM(t, s, c.block(transferTx(alice, bob)))
	}
	ctx := context.Background()
	// Block n has timestamp 1_700_000_000 + n.
	for _, tt := range []struct{ ts, want uint64 }{
		{0, 1}, {1_700_000_001, 1}, {1_700_000_005, 5}, {1_700_000_009, 9}, {1_700_000_010, 10},
	} {
		got, err := s.FirstEVMBlockAtOrAfter(ctx, evmChain, tt.ts, 1, 9)
		require.NoError(err)
		require.Equal(tt.want, got, "ts %d", tt.ts)
	}
	got, err := s.FirstEVMBlockAtOrAfter(ctx, evmChain, 0, 1, 0)
	require.NoError(err)
	require.Equal(uint64(1), got, "an empty range")
	_, err = s.FirstEVMBlockAtOrAfter(ctx, evmChain, 1_700_000_020, 1, 20)
	require.Error(err, "blocks of the range must be indexed")
}
