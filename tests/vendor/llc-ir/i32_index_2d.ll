; out[y][x] = a[y][x] * (y + 1) + x: a 2-D index space (dim 0 in vectors of
; 64, dim 1 in rows), two nested loops over it, the row number broadcast from
; a scalar, the column from the lane id (llvm.tpc.read.lane.id) plus the
; vector's first column.
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %f0 = extractelement <5 x i32> %off, i32 0
  %n0 = extractelement <5 x i32> %size, i32 0
  %l0 = add i32 %f0, %n0
  %f1 = extractelement <5 x i32> %off, i32 1
  %n1 = extractelement <5 x i32> %size, i32 1
  %l1 = add i32 %f1, %n1
  br label %outer

outer:
  %y = phi i32 [ %f1, %entry ], [ %ynext, %outerdone ]
  %y1 = add i32 %y, 1
  %yv = insertelement <64 x i32> undef, i32 %y1, i32 0
  %ys = shufflevector <64 x i32> %yv, <64 x i32> undef, <64 x i32> zeroinitializer
  br label %inner

inner:
  %i = phi i32 [ %f0, %outer ], [ %inext, %inner ]
  %x = mul i32 %i, 64
  %c0 = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %c = insertelement <5 x i32> %c0, i32 %y, i32 1
  %a = call <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32> %c, i8 0, i32 0, <64 x i32> undef, i1 true, i1 false)
  %m = mul <64 x i32> %a, %ys
  %xv = insertelement <64 x i32> undef, i32 %x, i32 0
  %xs = shufflevector <64 x i32> %xv, <64 x i32> undef, <64 x i32> zeroinitializer
  %id = call <64 x i32> @llvm.tpc.read.lane.id.v64i32.i1(<64 x i32> undef, i1 true, i1 false)
  %lane = add <64 x i32> %xs, %id
  %r = add <64 x i32> %m, %lane
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 1, <64 x i32> %r, i32 0, i1 true, i1 false)
  %inext = add i32 %i, 1
  %imore = icmp slt i32 %inext, %l0
  br i1 %imore, label %inner, label %outerdone

outerdone:
  %ynext = add i32 %y, 1
  %ymore = icmp slt i32 %ynext, %l1
  br i1 %ymore, label %outer, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32>, i8, i32, <64 x i32>, i1, i1)
declare <64 x i32> @llvm.tpc.read.lane.id.v64i32.i1(<64 x i32>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
